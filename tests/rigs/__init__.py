"""Test rigs: a whole simulated table as a subprocess, and an in-process table."""
