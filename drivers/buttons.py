"""The dealer's push buttons and their lights, on GPIO through gpiozero.

Each button is a :class:`gpiozero.Button` wired between its pin and ground (the
pin's internal pull-up holds it high; a press pulls it low). Each light is a
:class:`gpiozero.LED`. Pins are BCM numbers, from the ``[buttons]`` and
``[lights]`` tables of the configuration.

gpiozero calls ``when_pressed`` in its own thread. :class:`DealerPanel` never
runs controller code there: it hands the press to the asyncio loop with
``loop.call_soon_threadsafe``, so ``on_press`` always runs on the loop thread,
in the order the presses happened.

>>> import asyncio
>>> from gpiozero.pins.mock import MockFactory
>>> factory = MockFactory()
>>> loop = asyncio.new_event_loop()
>>> pressed = []
>>> panel = DealerPanel({"deal": 5}, {"deal": 16}, loop=loop, on_press=pressed.append,
...                     pin_factory=factory, bounce_time=None)
>>> panel.set_live(["deal"])
>>> panel.is_lit("deal"), factory.pin(16).state
(True, True)
>>> factory.pin(5).drive_low(); factory.pin(5).drive_high()
>>> loop.run_until_complete(asyncio.sleep(0))
>>> pressed
['deal']
>>> panel.close(); loop.close()
"""

from __future__ import annotations

import asyncio
import logging
import warnings
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from types import TracebackType

from gpiozero import LED, Button, Device, GPIODeviceClosed, GPIOZeroError
from gpiozero.pins import Factory

__all__ = ["DealerPanel", "pin_factory_problem"]

log = logging.getLogger(__name__)


def pin_factory_problem() -> str | None:
    """Why gpiozero has no pin factory to drive the buttons and lights with, in one line, or None.

    gpiozero picks its factory from ``GPIOZERO_PIN_FACTORY`` or, when that is unset, the first
    GPIO library it can load (lgpio on a current Pi). Off a Pi, or on a Pi without lgpio, there is
    none; the line says which library was missing and how to choose a factory. A factory found is
    kept by gpiozero for the devices made later.
    """
    with warnings.catch_warnings(record=True) as fallbacks:
        warnings.simplefilter("always")
        try:
            Device.ensure_pin_factory()
        except (GPIOZeroError, ImportError, OSError) as error:
            tried = "; ".join(str(w.message) for w in fallbacks[:1])
            return (f"the dealer's buttons and lights cannot be driven: {error}"
                    f"{f' ({tried})' if tried else ''}: on a Raspberry Pi install lgpio "
                    "(python3-lgpio); on a bench without GPIO start with GPIOZERO_PIN_FACTORY=mock "
                    "(gpiozero's mock pins)")
    return None


class DealerPanel:
    """The dealer's push buttons and their lights. A light is on exactly while its button may be pressed.

    ``buttons`` and ``lights`` map a button name (``"deal"``, ``"stand"``,
    ``"next"``, ...) to a BCM pin number. A button may have no light, and a
    light may belong to a button that is only pressed through the control
    socket. Every press of a button calls ``on_press(name)`` on ``loop``, lit or
    not: deciding whether a press is allowed now is the controller's job.

    ``pin_factory`` is passed to every device (None: gpiozero's default);
    ``bounce_time`` is the buttons' debounce time in seconds (None: none).

    If a device cannot be created (a pin in use twice, a pin that does not
    exist), the devices already created are closed and gpiozero's error is
    raised. The panel is a context manager that closes itself on exit.
    """

    def __init__(
        self,
        buttons: Mapping[str, int],
        lights: Mapping[str, int],
        *,
        loop: asyncio.AbstractEventLoop,
        on_press: Callable[[str], None],
        pin_factory: Factory | None = None,
        bounce_time: float | None = 0.05,
    ) -> None:
        self._loop = loop
        self._on_press = on_press
        self._buttons: dict[str, Button] = {}
        self._lights: dict[str, LED] = {}
        self._live: frozenset[str] = frozenset()
        self._closed = False
        try:
            for name, pin in buttons.items():
                button = Button(pin, pull_up=True, bounce_time=bounce_time, pin_factory=pin_factory)
                self._buttons[name] = button
                button.when_pressed = partial(self._pressed, name)
            for name, pin in lights.items():
                self._lights[name] = LED(pin, initial_value=False, pin_factory=pin_factory)
        except BaseException:
            self.close()
            raise

    def _pressed(self, name: str) -> None:
        """Runs in gpiozero's thread: hand the press over to the loop, nothing else."""
        try:
            self._loop.call_soon_threadsafe(self._on_press, name)
        except RuntimeError:
            # The loop is closed (shutting down): there is no one left to tell.
            log.warning("button %r pressed after the event loop closed; ignored", name)

    @property
    def buttons(self) -> frozenset[str]:
        """The names of the buttons on the panel."""
        return frozenset(self._buttons)

    @property
    def lights(self) -> frozenset[str]:
        """The names of the buttons that have a light."""
        return frozenset(self._lights)

    def set_live(self, names: Iterable[str]) -> None:
        """Light exactly the lights of ``names``, and put out every other light.

        Names without a light are accepted and ignored (they still count in
        :attr:`live`). Raises :class:`gpiozero.GPIODeviceClosed` after :meth:`close`.
        """
        if self._closed:
            raise GPIODeviceClosed("the dealer panel is closed")
        live = frozenset(names)
        for name, light in self._lights.items():
            if name in live:
                light.on()
            else:
                light.off()
        self._live = live

    @property
    def live(self) -> frozenset[str]:
        """The names :meth:`set_live` last set (empty before the first call)."""
        return self._live

    def is_lit(self, name: str) -> bool:
        """True when ``name``'s light is on (False for a name without a light, or when closed)."""
        light = self._lights.get(name)
        if light is None or self._closed:
            return False
        return bool(light.is_lit)

    def is_pressed(self, name: str) -> bool:
        """True while ``name``'s button is held down (False for an unknown name, or when closed)."""
        button = self._buttons.get(name)
        if button is None or self._closed:
            return False
        return bool(button.is_pressed)

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has been called."""
        return self._closed

    def close(self) -> None:
        """Put out the lights and release every pin. Calling it again does nothing."""
        if self._closed:
            return
        self._closed = True
        for button in self._buttons.values():
            button.when_pressed = None
            button.close()
        for light in self._lights.values():
            light.off()
            light.close()
        self._live = frozenset()

    def __enter__(self) -> DealerPanel:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        if self._closed:
            return "<DealerPanel closed>"
        lit = sorted(name for name in self._lights if self.is_lit(name))
        return f"<DealerPanel buttons={sorted(self._buttons)} lit={lit}>"
