"""The daemon: the process that runs on the Pi under the table, one table on one asyncio loop
(``table-controller run``, :mod:`controller.cli`). Its modules, from the top of its layers down
(the contract ``daemon`` of ``[tool.importlinter]``, docs/architecture.md):

- :mod:`~controller.daemon.loop`: its steps (:class:`~controller.daemon.loop.Daemon`), which wire
  the rest;
- :mod:`~controller.daemon.control`: its answers to control commands (the PIN gates, the request
  ids, the handlers), the daemon's front door;
- :mod:`~controller.daemon.show`: what it shows after each step (``table.view``, the display, the
  status line, the lights);
- :mod:`~controller.daemon.start`: what it makes and checks at start (the table, the display, the
  pit sockets, the boards; the integrity manifest);
- :mod:`~controller.daemon.journal`: its journal at start and between hands (the epoch, the replay,
  the rotation and pruning);
- :mod:`~controller.daemon.memory`: its critical memory's checks, fault and clear;
- :mod:`~controller.daemon.service`: what it tells systemd (ready, status, watchdog, stopping).
"""
