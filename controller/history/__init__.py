"""A table's journal read back afterwards, as the table's own records: a hand recalled (:mod:`.recall`,
``table-controller recall`` and the daemon's recall) and the progressive meters (:mod:`.progressive`,
``table-controller progressive``).

Above the table (it decodes records as the table journaled them), below the command line and the daemon;
the journal itself (``controller/journal/``) only stores and checks the records.
"""
