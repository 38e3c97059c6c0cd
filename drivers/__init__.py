"""Drivers: turn the shoe, the RFID reader, GPIO buttons and lights and the dealer
display into plain domain inputs and outputs for the controller."""
