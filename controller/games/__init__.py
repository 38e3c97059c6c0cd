"""Pure game rules: no I/O, no clock, no randomness. Immutable data in, decisions and events out."""
