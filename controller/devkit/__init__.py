"""Development tools, not shipped as part of the daemon: the demo, simulated tables and floors, and the
real servers the tests start (PostgreSQL, headless Chromium)."""
