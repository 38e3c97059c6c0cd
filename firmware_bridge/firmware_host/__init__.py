"""Host-side (CPython) parts of the reference firmware: fakes of ``machine``, physical models, the runner."""
