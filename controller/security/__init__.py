"""Supervisor PIN hashes and the software integrity manifest."""
