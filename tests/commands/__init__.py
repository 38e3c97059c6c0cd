"""Tests of the command registry (controller/commands/)."""
