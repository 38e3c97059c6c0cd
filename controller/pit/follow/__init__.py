"""Following a table's pit stream: one core, two flavours, one reducer.

* :mod:`controller.pit.follow.core`: the sans-I/O tracker (snapshot at the
  start, replay and gap repair, epochs, link state) that says what to ask the
  table next;
* :mod:`controller.pit.follow.aio`: :class:`~controller.pit.follow.aio.Follower`
  and its :class:`~controller.pit.follow.aio.Listener`, on an asyncio loop (the
  pit monitor, the recorder, the dealer screen);
* :mod:`controller.pit.follow.blocking`: :class:`~controller.pit.follow.blocking.PitClient`,
  blocking with timeouts (tools, tests, the demo, benchmarks);
* :mod:`controller.pit.follow.picture`: the table's state as the stream draws it;
* :mod:`controller.pit.follow.control`: :class:`~controller.pit.follow.control.Control`, commands to
  a table's control socket from an asyncio loop (the dealer screen, the pit monitor's pit actions);
* :mod:`controller.pit.follow.sources`: where each table publishes (``--table`` arguments, a
  floor file, CURVE keys).
"""
