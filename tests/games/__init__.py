"""Tests of the games area."""
