"""Configuration: the TOML file, its validation, and typed game options."""
