"""Configuration: the TOML file and its validation, and the file permissions the daemon requires of it."""
