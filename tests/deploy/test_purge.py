"""``deploy/install.sh uninstall --purge`` deletes the journal only when told which table it is.

A staging root (``DESTDIR``) with a table's configuration and journal laid down by hand:
a purge without ``--confirm-table`` naming the table in its configuration is refused,
saying why, and nothing is removed; with it, the table's data is gone.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.deploy.conftest import INSTALL, ROOT


def staged_table(stage: Path) -> list[Path]:
    """The configuration, keys and journal of table T07 in a staging root; the files laid down."""
    conf, state = stage / "etc/table-controller", stage / "var/lib/table-controller"
    (conf / "keys").mkdir(parents=True)
    state.mkdir(parents=True)
    (conf / "table.toml").write_bytes((ROOT / "deploy" / "table.toml").read_bytes())
    (conf / "keys" / "table.key_secret").write_text("secret\n")
    (state / "journal.log").write_text('{"seq": 1}\n')
    (stage / ".install-owners").write_text("")
    return [conf / "table.toml", conf / "keys" / "table.key_secret", state / "journal.log"]


def uninstall(stage: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DESTDIR=str(stage), PYTHON=sys.executable)
    return subprocess.run(["bash", str(INSTALL), "uninstall", *args], env=env, capture_output=True,
                          text=True, timeout=60, cwd="/")


def test_a_purge_is_refused_unless_it_names_the_table(tmp_path: Path) -> None:
    files = staged_table(tmp_path)
    for args, why in ((["--purge"], "a purge deletes the journal of table T07"),
                      (["--purge", "--confirm-table", "T08"], "this is table T07, not T08"),
                      (["--purge", "--confirm-table"], "a purge deletes the journal of table T07")):
        refused = uninstall(tmp_path, *args)
        assert refused.returncode == 2, refused.stdout
        assert why in refused.stderr
        assert "--purge --confirm-table T07" in refused.stderr
        assert all(path.exists() for path in files), args
    done = uninstall(tmp_path, "--purge", "--confirm-table", "T07")
    assert done.returncode == 0, done.stderr
    assert not any(path.exists() for path in files)


def test_an_unknown_option_is_refused(tmp_path: Path) -> None:
    files = staged_table(tmp_path)
    refused = uninstall(tmp_path, "--purge-all")
    assert refused.returncode == 2
    assert "usage:" in refused.stderr
    assert all(path.exists() for path in files)
