"""Tests of the table area."""
