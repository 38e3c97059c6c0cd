"""Tests of the pit area."""
