"""Plug-ins outside the shipped package that tests install: a second spot-reader driver and its test board."""
