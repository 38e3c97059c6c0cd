"""What the integrity manifest hashes: what the daemon runs, not the tools and firmware beside it."""

from __future__ import annotations

from controller.security.integrity import installed_files


def test_the_manifest_covers_the_daemons_files_and_leaves_out_the_board_firmware_and_tools() -> None:
    names = set(installed_files())
    assert {"firmware_bridge/link/host.py", "firmware_bridge/kernel/cards.py", "drivers/shoe.py",
            "controller/daemon/loop.py", "controller/pit/server.py", "controller/follow/core.py",
            "controller/screen/web.py"} <= names
    left_out = ("firmware_bridge/firmware/", "firmware_bridge/firmware_host/", "firmware_bridge/simulator/",
                "controller/devkit/", "controller/podium/")
    assert not [name for name in names if name.startswith(left_out) or name == "firmware_bridge/codes.py"]
