"""The daemon's own sockets to the pit, on the table's Pi: the ZeroMQ publish, sync and control server
(:mod:`.server`). Its clients are the pit client library (``controller/follow``) and what uses it."""
