"""The pit: the daemon's ZeroMQ publish/sync/control server (on the Pi), a pit client, and the pit's own
applications."""
