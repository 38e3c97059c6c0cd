"""Tests of the link area."""
