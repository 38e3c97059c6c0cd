"""Running under systemd: the notify protocol, the watchdog pings and the status line."""
