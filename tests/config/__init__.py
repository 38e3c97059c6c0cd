"""Tests of the config area."""
