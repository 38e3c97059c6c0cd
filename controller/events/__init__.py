"""Every pit event as a frozen, typed record, registered under its pit type, with one codec.

:mod:`.registry` holds the records by pit type (``card.dealt``, ``seat.stack``,
``bet.placed``, ...); :mod:`.codec` turns a record into ``(type, data, private)``
and back, for the pit stream, the journal's replay and the checkpoint alike.
:mod:`.table` holds the events of the table itself, :mod:`.hand` those of a
hand in play; each part of a session (``controller/games/session/``) holds its
own, and a game with a fact of its own registers its events the same way.
:mod:`.envelope` writes the published envelope (two ZeroMQ frames) around a record's data, once.
"""
