"""Tests of the reference board firmware (firmware_bridge/firmware) and its host runner."""
