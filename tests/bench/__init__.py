"""Tests of the bench area."""
