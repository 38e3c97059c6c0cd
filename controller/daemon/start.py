"""What the daemon makes and checks at start, from its configuration: the table with its game and
settings, the dealer display, the pit sockets (CURVE servers when keys are configured) and the boards;
the installed files checked against the integrity manifest (``[integrity]``), and the boards that
never answered once start-up is over.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence

from controller.boards import make_board
from controller.config.loader import Config
from controller.events.envelope import now_timestamp
from controller.games.catalog import find_game, rules_json
from controller.journal.lines import Record
from controller.pit.server import CurveKeys, PitServer
from controller.security import integrity
from controller.table.machine import Table, TableSettings
from controller.table.state import ShoeState
from drivers.board import BoardDriver, BoardSetup
from drivers.chips import ChipRegistry
from drivers.display import LogRenderer, NullRenderer, Renderer, TerminalRenderer
from drivers.inputs import DeviceOffline, DriverInput

log = logging.getLogger("controller.daemon")
"""The daemon's log: these lines are the daemon's, and keep its name."""


def make_table(config: Config, registry: ChipRegistry, write: Callable[[Sequence[Record]], None],
               epoch: int) -> Table:
    """The table of ``config``'s game, its chips the active ones of ``registry``, journaling each step
    through ``write`` and publishing in ``epoch``."""
    spec = find_game(config.game)
    settings = TableSettings(
        table_id=config.table_id, game_name=config.game, seats=config.seats,
        limits={"min_bet": config.limits.min_bet, "max_bet": config.limits.max_bet},
        buttons=tuple(config.buttons), boards=tuple(config.boards),
        chips=tuple(sorted({chip.value for chip in registry if chip.is_active})),
        payout_check=config.payout_check, tray=config.tray, rules=rules_json(config.rules),
        floor_call_window=config.floor_call_window, repeat_window=config.repeat_window_ms / 1000,
        mispay=config.mispay,
    )
    return Table(settings, spec.make(config.rules, config.limits), clock=now_timestamp, write=write,
                 epoch=epoch, remake=lambda limits: spec.make(config.rules, limits))


def make_renderer(mode: str) -> Renderer:
    """The dealer display for ``[display] mode``."""
    if mode == "terminal":
        return TerminalRenderer(sys.stdout)
    if mode == "log":
        return LogRenderer(sys.stderr)
    return NullRenderer()


def make_pit(config: Config, epoch: int, *, snapshot: Callable[[], Mapping[str, object]],
             history: Callable[[int], Iterable[tuple[bytes, bytes]]], last_seq: Callable[[], int],
             on_command: Callable[[dict[str, object], str | None], Awaitable[dict[str, object]]],
             ) -> PitServer:
    """The pit sockets of ``[pit]`` (not bound yet: :meth:`PitServer.start`), CURVE servers when its
    key files are configured, answering the sync socket and the control socket with the callbacks."""
    pit = config.pit
    curve = None
    if pit.curve_secret_key is not None and pit.curve_clients is not None:
        curve = CurveKeys(pit.curve_secret_key, pit.curve_clients)
    return PitServer(config.table_id, publish=pit.publish, sync=pit.sync, control=pit.control,
                     snapshot=snapshot, history=history, last_seq=last_seq, on_command=on_command,
                     curve=curve, epoch=epoch)


def make_boards(config: Config, registry: ChipRegistry, shoe: ShoeState,
                on_input: Callable[[DriverInput], None]) -> list[BoardDriver]:
    """The drivers of the boards of ``[devices]`` (not started yet), their inputs to ``on_input``;
    ``shoe`` is the shoe the journal has loaded."""
    return [make_board(board.driver, BoardSetup(role, board.options, on_input=on_input,
                                                antennas=config.antennas, registry=registry,
                                                shoe_id=shoe.shoe_id, shoe_decks=shoe.decks,
                                                shoe_read=dict(shoe.read)))
            for role, board in config.boards.items()]


def check_integrity(config: Config, table: Table) -> None:
    """Check the installed files against the manifest, if one is configured: each problem logged and
    raised as a ``software_integrity`` alert."""
    manifest = config.integrity_manifest
    if manifest is None:
        return
    problems = integrity.check(manifest)
    for problem in problems:
        log.critical("software integrity: %s", problem)
    table.integrity_alerts(problems)


def check_boards(boards: Iterable[BoardDriver], table: Table,
                 on_input: Callable[[DriverInput], None]) -> None:
    """Some time after start, a board that the journal left online but that has not answered since is
    offline (its link never came up, so the link will not say so itself): told to ``on_input``."""
    for driver in boards:
        if not driver.is_online and table.state.devices[driver.device].online:
            on_input(DeviceOffline(driver.device, "no answer since the controller started"))
