"""The table core: the state machine, the state rebuilt from events, and its public views. Names no game."""
