"""Supervisor PIN hashes and the supervisor gate, the integrity manifest and CURVE keys."""
