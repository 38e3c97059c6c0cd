"""Tests for drivers.buttons: the dealer panel on gpiozero's MockFactory pins."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Iterator

import pytest
from gpiozero import Device, GPIODeviceClosed, GPIOPinInUse
from gpiozero.pins.mock import MockFactory

from drivers.buttons import DealerPanel

BUTTONS = {"deal": 5, "stand": 6, "next": 13, "void": 19}
LIGHTS = {"deal": 16, "stand": 20, "next": 21}


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.reset()


class Presses:
    """Records on_press calls, and the thread each ran on."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []
        self.arrived = asyncio.Event()

    def __call__(self, name: str) -> None:
        self.calls.append((name, threading.get_ident()))
        self.arrived.set()

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.calls]

    async def wait_for(self, count: int) -> None:
        async with asyncio.timeout(5):
            while len(self.calls) < count:
                self.arrived.clear()
                await self.arrived.wait()


def make_panel(
    factory: MockFactory,
    loop: asyncio.AbstractEventLoop,
    on_press: Callable[[str], None] = lambda name: None,
) -> DealerPanel:
    return DealerPanel(
        BUTTONS, LIGHTS, loop=loop, on_press=on_press, pin_factory=factory, bounce_time=None
    )


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


async def press_from_other_thread(factory: MockFactory, *pins: int) -> int:
    """Press ``pins`` in order from a thread that is not the loop's, as gpiozero would; its id."""
    idents: list[int] = []

    def run() -> None:
        idents.append(threading.get_ident())
        for pin in pins:
            press(factory, pin)

    thread = threading.Thread(target=run)
    thread.start()
    await asyncio.to_thread(thread.join)
    return idents[0]


async def test_press_reaches_on_press_on_the_loop_thread(factory: MockFactory) -> None:
    presses = Presses()
    panel = make_panel(factory, asyncio.get_running_loop(), presses)
    try:
        other = await press_from_other_thread(factory, 5)
        await presses.wait_for(1)
        assert presses.names == ["deal"]
        loop_thread = threading.get_ident()
        assert other != loop_thread
        assert presses.calls[0][1] == loop_thread
    finally:
        panel.close()


async def test_presses_arrive_in_order_and_releases_are_not_presses(
    factory: MockFactory,
) -> None:
    presses = Presses()
    with make_panel(factory, asyncio.get_running_loop(), presses):
        await press_from_other_thread(factory, 6, 13, 5, 19)
        await presses.wait_for(4)
        await asyncio.sleep(0.01)
        assert presses.names == ["stand", "next", "deal", "void"]


async def test_unlit_button_presses_are_still_reported(factory: MockFactory) -> None:
    presses = Presses()
    with make_panel(factory, asyncio.get_running_loop(), presses) as panel:
        panel.set_live(["deal"])
        await press_from_other_thread(factory, 6)
        await presses.wait_for(1)
        assert presses.names == ["stand"]


async def test_is_pressed_follows_the_pin(factory: MockFactory) -> None:
    with make_panel(factory, asyncio.get_running_loop()) as panel:
        assert not panel.is_pressed("deal")
        factory.pin(5).drive_low()
        assert panel.is_pressed("deal")
        factory.pin(5).drive_high()
        assert not panel.is_pressed("deal")
        assert not panel.is_pressed("nonesuch")


async def test_default_pin_factory_is_used_when_none_is_given() -> None:
    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    presses = Presses()
    try:
        with DealerPanel(
            {"deal": 5},
            {"deal": 16},
            loop=asyncio.get_running_loop(),
            on_press=presses,
            bounce_time=None,
        ) as panel:
            panel.set_live(["deal"])
            assert factory.pin(16).state
            await press_from_other_thread(factory, 5)
            await presses.wait_for(1)
            assert presses.names == ["deal"]
    finally:
        factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


def lit_pins(factory: MockFactory) -> dict[str, bool]:
    return {name: bool(factory.pin(pin).state) for name, pin in LIGHTS.items()}


def test_lights_start_off(factory: MockFactory, loop: asyncio.AbstractEventLoop) -> None:
    with make_panel(factory, loop) as panel:
        assert lit_pins(factory) == {"deal": False, "stand": False, "next": False}
        assert panel.live == frozenset()
        assert panel.buttons == frozenset(BUTTONS)
        assert panel.lights == frozenset(LIGHTS)


def test_lights_follow_set_live(factory: MockFactory, loop: asyncio.AbstractEventLoop) -> None:
    with make_panel(factory, loop) as panel:
        panel.set_live(["deal", "next"])
        assert lit_pins(factory) == {"deal": True, "stand": False, "next": True}
        assert panel.is_lit("deal") and panel.is_lit("next") and not panel.is_lit("stand")

        panel.set_live({"stand"})
        assert lit_pins(factory) == {"deal": False, "stand": True, "next": False}
        assert panel.live == frozenset({"stand"})

        panel.set_live([])
        assert lit_pins(factory) == {"deal": False, "stand": False, "next": False}


def test_names_without_a_light_are_ignored(factory: MockFactory, loop: asyncio.AbstractEventLoop) -> None:
    with make_panel(factory, loop) as panel:
        panel.set_live(["void", "hit", "deal"])
        assert lit_pins(factory) == {"deal": True, "stand": False, "next": False}
        assert panel.live == frozenset({"void", "hit", "deal"})
        assert not panel.is_lit("void")
        assert not panel.is_lit("hit")


def test_close_is_idempotent_puts_out_lights_and_frees_pins(
    factory: MockFactory, loop: asyncio.AbstractEventLoop
) -> None:
    panel = make_panel(factory, loop)
    panel.set_live(["deal", "stand"])
    panel.close()
    panel.close()
    assert panel.closed
    assert lit_pins(factory) == {"deal": False, "stand": False, "next": False}
    assert not panel.is_lit("deal")
    assert panel.live == frozenset()
    with pytest.raises(GPIODeviceClosed):
        panel.set_live(["deal"])
    # The pins are free again.
    make_panel(factory, loop).close()


def test_press_after_close_calls_nothing(factory: MockFactory) -> None:
    loop = asyncio.new_event_loop()
    presses: list[str] = []
    try:
        panel = make_panel(factory, loop, presses.append)
        panel.close()
        press(factory, 5)
        loop.run_until_complete(asyncio.sleep(0))
        assert presses == []
    finally:
        loop.close()


def test_press_after_the_loop_closed_is_logged_not_raised(
    factory: MockFactory, caplog: pytest.LogCaptureFixture
) -> None:
    loop = asyncio.new_event_loop()
    with make_panel(factory, loop):
        loop.close()
        with caplog.at_level(logging.WARNING, logger="drivers.buttons"):
            press(factory, 6)
    assert "'stand' pressed after the event loop closed" in caplog.text


def test_pin_used_twice_fails_and_releases_what_was_claimed(
    factory: MockFactory, loop: asyncio.AbstractEventLoop
) -> None:
    with pytest.raises(GPIOPinInUse):
        DealerPanel(
            {"deal": 5},
            {"deal": 5},
            loop=loop,
            on_press=lambda name: None,
            pin_factory=factory,
            bounce_time=None,
        )
    make_panel(factory, loop).close()
