"""The table controller: pure game rules, the table state machine, the journal,
the pit publisher, configuration, the command line and the daemon wiring."""
