"""The board simulator: shoe and RFID boards on a pty, with fault injection."""
