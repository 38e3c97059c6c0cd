"""The pit: event envelope, the ZeroMQ publish/sync/control server, and a pit client."""
