"""The daemon: the process that runs on the Pi under the table, one table on one asyncio loop
(``table-controller run``, :mod:`controller.cli`). Its modules, each importing only those below it
(``[tool.importlinter]``, docs/architecture.md):

- :mod:`~controller.daemon.loop`: the steps (:class:`~controller.daemon.loop.Daemon`), what it shows
  after each (``Show``) and its answers to control commands (``ControlCommands``);
- :mod:`~controller.daemon.start`: what it makes and checks at start (the table, the display, the
  pit sockets, the boards; the integrity manifest);
- :mod:`~controller.daemon.journal`: its journal at start and between hands (the epoch, the replay,
  the rotation and pruning);
- :mod:`~controller.daemon.memory`: its critical memory's checks, fault and clear;
- :mod:`~controller.daemon.service`: what it tells systemd (ready, status, watchdog, stopping).
"""
