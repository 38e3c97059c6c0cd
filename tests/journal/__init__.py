"""Tests of the journal area."""
