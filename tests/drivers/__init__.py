"""Tests of the drivers area."""
