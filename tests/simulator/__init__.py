"""Tests of the simulator area."""
