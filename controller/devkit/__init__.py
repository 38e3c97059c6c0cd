"""Development tools, not shipped as part of the daemon: the demo and simulated-table helpers."""
