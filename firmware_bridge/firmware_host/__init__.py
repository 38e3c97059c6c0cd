"""Host-side (CPython only) stand-ins for the boards' hardware: the PN5180 model and its simulated tags."""
