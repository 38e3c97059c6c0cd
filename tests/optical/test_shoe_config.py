"""``[devices.shoe] driver = "optical"``: its keys checked with the configuration, the taught designs and a
rendered camera's script taken from the configuration's folder, and a taught file that is missing or
corrupt a line of its own that stops the start (exit status 2), as every mistake of the file does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from controller.config.loader import ConfigError, load_config
from controller.devkit.simulated import write_config
from drivers.optical.designs import deck
from drivers.optical.frames import FrameMaker
from drivers.optical.shoe import OpticalShoeDriver
from drivers.optical.teach import teach


@pytest.fixture(scope="module")
def taught_bytes(standard: FrameMaker, tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("taught") / "standard.npz"
    teach("standard", ((card, standard.frame(card)) for card in deck())).save(path)
    return path.read_bytes()


def optical(tmp_path: Path, lines: str) -> Path:
    return write_config(tmp_path, devices={"shoe": f'driver = "optical"\n{lines}'})


def problems(config: Path) -> list[str]:
    with pytest.raises(ConfigError) as error:
        load_config(config)
    return error.value.problems


def test_the_taught_designs_and_the_script_are_taken_beside_the_configuration(
        tmp_path: Path, taught_bytes: bytes) -> None:
    (tmp_path / "taught").mkdir()
    (tmp_path / "taught" / "standard.npz").write_bytes(taught_bytes)
    config = load_config(optical(tmp_path, 'camera = "rendered:standard:frames.txt"\n'
                                           'designs = ["taught/standard.npz"]\nwindow = [10, 20, 300, 600]'))
    shoe = config.boards["shoe"]
    assert shoe.driver == "optical"
    assert shoe.options == OpticalShoeDriver.Options(
        port=str(tmp_path / "shoe"), camera=f"rendered:standard:{tmp_path / 'frames.txt'}",
        designs=(str(tmp_path / "taught" / "standard.npz"),), window=(10, 20, 300, 600))
    camera = load_config(optical(tmp_path, 'camera = "/dev/video0"\ndesigns = ["taught/standard.npz"]'))
    options = camera.boards["shoe"].options
    assert isinstance(options, OpticalShoeDriver.Options)
    assert (options.camera, options.window) == ("/dev/video0", None)


def test_a_taught_file_missing_or_corrupt_is_a_mistake_of_the_configuration(tmp_path: Path,
                                                                           taught_bytes: bytes) -> None:
    corrupt = bytearray(taught_bytes)
    corrupt[len(corrupt) // 2] ^= 0xFF
    (tmp_path / "corrupt.npz").write_bytes(bytes(corrupt))
    (tmp_path / "good.npz").write_bytes(taught_bytes)
    found = problems(optical(tmp_path, 'camera = "/dev/video0"\n'
                                       'designs = ["good.npz", "missing.npz", "corrupt.npz"]'))
    assert len(found) == 2
    assert found[0].startswith(f"devices.shoe.designs: {tmp_path / 'missing.npz'}: not a taught design file")
    assert found[1].startswith(f"devices.shoe.designs: {tmp_path / 'corrupt.npz'}: ")


@pytest.mark.parametrize(("lines", "expected"), [
    ('camera = "/dev/video0"\ndesigns = []',
     ["devices.shoe.designs: name at least one taught design (table-controller teach makes one)"]),
    ('camera = "/dev/video0"\ndesigns = "a.npz"', ["devices.shoe.designs: must be an array, not a string"]),
    ('camera = "/dev/video0"\ndesigns = ["a.npz", 2]',
     ["devices.shoe.designs.2: must be a string, not an integer"]),
    ('designs = ["a.npz"]', ["devices.shoe.camera: missing (required)"]),
    ('camera = "rendered:standard"\ndesigns = ["a.npz"]',
     ["devices.shoe.camera: 'rendered:standard' is not rendered:<design>:<script file>"]),
    ('camera = "/dev/video0"\ndesigns = ["a.npz"]\nwindow = [0, 0, 100]',
     ["devices.shoe.window: must be [x, y, width, height] in the camera's pixels, x and y 0 or more, "
      "width and height 1 or more, not [0, 0, 100]"]),
])
def test_the_optical_shoes_keys_are_checked(tmp_path: Path, lines: str, expected: list[str]) -> None:
    assert problems(optical(tmp_path, lines)) == expected


def test_a_rendered_camera_names_a_design_that_is_there(tmp_path: Path, taught_bytes: bytes) -> None:
    (tmp_path / "good.npz").write_bytes(taught_bytes)
    found = problems(optical(tmp_path, 'camera = "rendered:no-such-deck:frames.txt"\ndesigns = ["good.npz"]'))
    assert len(found) == 1 and found[0].startswith("devices.shoe.camera: no deck design 'no-such-deck' under")


def test_a_corrupt_taught_file_stops_the_start_with_one_line(tmp_path: Path, taught_bytes: bytes) -> None:
    (tmp_path / "standard.npz").write_bytes(taught_bytes[:-10])
    config = optical(tmp_path, 'camera = "/dev/video0"\ndesigns = ["standard.npz"]')
    run = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--config", str(config)],
                         capture_output=True, text=True, timeout=60, env={**os.environ})
    assert run.returncode == 2
    [line] = run.stderr.splitlines()
    assert line.startswith(f"config: devices.shoe.designs: {tmp_path / 'standard.npz'}: not a taught design")
