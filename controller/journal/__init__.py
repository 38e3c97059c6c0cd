"""Persistence: the fsynced event journal, checkpoints between hands, and recall of past hands."""
