"""The host side of the I/O link protocol, in layers: COBS, CRC, frames, messages, session, host."""
