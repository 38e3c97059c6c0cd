"""The pit client library: following a table's pit stream (one core, two flavours, one reducer) and
sending it commands. Every consumer uses it: the pit monitor, the recorder and game protection on the
podium PC, the dealer screen on the Pi, the tools, tests, the demo and the benchmarks.

* :mod:`controller.follow.core`: the sans-I/O tracker (snapshot at the
  start, replay and gap repair, epochs, link state) that says what to ask the
  table next;
* :mod:`controller.follow.aio`: :class:`~controller.follow.aio.Follower`
  and its :class:`~controller.follow.aio.Listener`, on an asyncio loop (the
  pit monitor, the recorder, the dealer screen);
* :mod:`controller.follow.blocking`: :class:`~controller.follow.blocking.PitClient`,
  blocking with timeouts (tools, tests, the demo, benchmarks);
* :mod:`controller.follow.picture`: the table's state as the stream draws it;
* :mod:`controller.follow.control`: :class:`~controller.follow.control.Control`, commands to
  a table's control socket from an asyncio loop (the dealer screen, the pit monitor's pit actions);
* :mod:`controller.follow.sources`: where each table publishes (``--table`` arguments, a
  floor file, CURVE keys).
"""
