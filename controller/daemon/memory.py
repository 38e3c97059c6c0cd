"""The daemon's use of its critical memory (:mod:`controller.journal.critical_memory`): the check at
start, before DEAL and after every hand, the fault it latches (kept across restarts, DEAL refused,
the ``critical_memory`` alert raised), and a supervisor's ``critical_memory_clear``, whose check of
the whole journal reads its files in a worker thread while the loop goes on serving the table.
"""

from __future__ import annotations

import logging

from controller.events.envelope import now_timestamp
from controller.journal.checkpoint import Checkpoint
from controller.journal.critical_memory import CriticalMemory
from controller.table.machine import Table
from firmware_bridge.kernel.repeat_log import RepeatLog

log = logging.getLogger("controller.daemon")
"""The daemon's log: these lines are the daemon's, and keep its name."""


def at_start(memory: CriticalMemory, table: Table, used: Checkpoint | None) -> None:
    """At start, once the table is open: latch what the check of the files found
    (:meth:`CriticalMemory.at_start`, ``used`` the checkpoint the table was recovered from), or
    raise again the alert of a fault latched before this start."""
    found = memory.at_start(used)
    if found is not None:
        latch(memory, table, f"at start: {found}")
    elif memory.fault is not None:
        log.critical("critical memory fault latched before this start: %s", memory.fault)
        table.critical_memory(memory.fault)


def check(memory: CriticalMemory, table: Table, when: str) -> None:
    """Check the critical memory (:meth:`CriticalMemory.check`), unless a fault is latched already;
    a check that fails latches one (``when``: before or after which hand)."""
    if memory.fault is None:
        try:
            problem = memory.check()
        except Exception as error:                          # what cannot be read back is no better
            log.exception("the critical memory check failed")
            problem = f"the check itself failed ({type(error).__name__}: {error})"
        if problem is not None:
            latch(memory, table, f"{when}: {problem}")


def latch(memory: CriticalMemory, table: Table, reason: str) -> None:
    """Latch a critical memory fault: kept across restarts, DEAL refused, the alert raised."""
    log.critical("critical memory fault: %s", reason)
    memory.latch(reason, now_timestamp())
    try:
        table.critical_memory(reason)
    except OSError:                                         # the journal failed too: the daemon stops
        table.critical_fault = reason


async def clear(memory: CriticalMemory, repeats: RepeatLog, supervisor: str) -> str | None:
    """The supervisor's ``critical_memory_clear``: the fault goes only if the whole check passes
    (:meth:`CriticalMemory.clear`: the journal read in a worker thread while the loop serves the
    table, which DEAL still refuses meanwhile); returns why not, or None once it went (its alert is
    then the command's step, :meth:`controller.daemon.control.ControlCommands.clear_command`)."""
    refused = await memory.clear()
    if refused is None:
        log.warning("critical memory fault cleared by supervisor %r", supervisor)
    else:
        repeats.note(("refused", refused), logging.INFO, f"command refused: {refused}")
    return refused
