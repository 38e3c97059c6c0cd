"""Supervisor PIN hashes, the integrity manifest, CURVE keys and the file permissions the daemon requires."""
