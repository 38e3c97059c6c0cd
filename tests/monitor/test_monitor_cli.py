"""``pit-monitor`` arguments: tables from the command line and a TOML file, and where the page may be served.

The page is served on loopback unless TLS and a password file are given; with
them, a real ``pit-monitor serve`` answers over HTTPS (a certificate made by
openssl) only to a signed-in user.
"""

from __future__ import annotations

import base64
import json
import os
import pwd
import shutil
import ssl
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import zmq.auth

from controller.follow.sources import TablesError, TableSource, load_sources
from controller.podium.monitor.cli import main
from controller.security.supervisor_pins import hash_pin
from tests.monitor.conftest import Monitor


def test_the_help_reads_plainly() -> None:
    """No literal double backquotes in pit-monitor's help (issue 18 item 17)."""
    from controller.podium.monitor.cli import parser

    assert "``" not in parser().format_help()
    assert parser().format_help().count("pit-monitor") >= 2


def test_mistakes_in_the_arguments_stop_at_once_one_line_each(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve"]) == 2
    assert "no table to follow" in capsys.readouterr().err
    assert main(["serve", "--table=T/1=tcp://h:1", "--table=T2", "--table=T3=ipc:///p"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 3 and "without '/'" in lines[0] and "NAME=tcp://" in lines[1]
    assert "cannot derive a sync address" in lines[2]
    assert main(["serve", "--table=T1=tcp://127.0.0.1:5556", "--host=0.0.0.0"]) == 2
    assert "serving on 0.0.0.0 needs TLS" in capsys.readouterr().err
    assert main(["serve", "--table=T1=tcp://127.0.0.1:5556", f"--tls-cert={tmp_path}/c.pem"]) == 2
    assert "both --tls-cert and --tls-key" in capsys.readouterr().err
    floor = tmp_path / "floor.toml"
    floor.write_text('[tables.T1]\npublish = "tcp://10.0.0.1:5556"\ncolour = 1\n'
                     '[tables.T2]\nsync = "tcp://10.0.0.2:5557"\n')
    assert main(["record", "--db=x.sqlite", f"--tables={floor}", "--table=T1=tcp://10.0.0.1:5556"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert any("unknown keys ['colour']" in line for line in lines)
    assert any("[tables.T2]: needs publish" in line for line in lines)
    assert any("table T1 is given twice" in line for line in lines)


def test_tables_and_their_curve_keys_from_a_file(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    keys.mkdir()
    _, monitor_secret = zmq.auth.create_certificates(keys, "podium")
    table_public, _ = zmq.auth.create_certificates(keys, "table")
    t9_public, _ = zmq.auth.create_certificates(keys, "t9")
    floor = tmp_path / "floor.toml"
    floor.write_text('[curve]\nclient_key = "keys/podium.key_secret"\nserver_key = "keys/table.key"\n'
                     '[tables.T8]\npublish = "tcp://10.1.0.8:5556"\n'
                     '[tables.T9]\npublish = "tcp://10.1.0.9:6000"\nsync = "tcp://10.1.0.9:7000"\n'
                     'server_key = "keys/t9.key"\n')
    t8, t9 = load_sources([], floor)
    podium_public, podium_secret = zmq.auth.load_certificate(monitor_secret)
    assert (t8.name, t8.publish, t8.sync) == ("T8", "tcp://10.1.0.8:5556", "tcp://10.1.0.8:5557")
    assert t8.curve == (zmq.auth.load_certificate(table_public)[0], podium_public, podium_secret)
    assert t9.sync == "tcp://10.1.0.9:7000" and t9.curve is not None
    assert t9.curve[0] == zmq.auth.load_certificate(t9_public)[0]
    with pytest.raises(TablesError, match="no table public key"):
        load_sources(["T1=tcp://127.0.0.1:5556"], client_key=Path(monitor_secret))
    with pytest.raises(TablesError, match="holds no secret key"):
        load_sources(["T1=tcp://127.0.0.1:5556"], client_key=Path(table_public),
                     server_key=Path(table_public))


def test_a_floor_file_s_pits_control_sockets_and_shifts(tmp_path: Path) -> None:
    floor = tmp_path / "floor.toml"
    floor.write_text('[shifts]\nstarts = ["06:00", "14:00"]\nzone = "UTC"\n'
                     '[tables.T1]\npublish = "tcp://10.0.0.1:5556"\npit = " Pit 1 "\n'
                     'control = "tcp://10.0.0.1:5558"\n'
                     '[tables.T2]\npublish = "tcp://10.0.0.2:5556"\n')
    t1, t2 = load_sources([], floor)
    assert (t1.pit, t1.control, t2.pit, t2.control) == ("Pit 1", "tcp://10.0.0.1:5558", None, None)
    floor.write_text('[pits]\nx = 1\n[shifts]\n[tables.T1]\npublish = "tcp://10.0.0.1:5556"\npit = 7\n'
                     '[tables.T2]\npublish = "tcp://10.0.0.2:5556"\ncontrol = "10.0.0.2:5558"\n')
    with pytest.raises(TablesError) as refused:
        load_sources([], floor)
    lines = str(refused.value).splitlines()
    assert len(lines) == 3 and "unknown sections ['pits']" in lines[0]
    assert "[tables.T1]: pit is a name" in lines[1] and "[tables.T2]: control is the table's" in lines[2]


def test_served_beyond_loopback_only_over_tls_to_a_signed_in_user(tmp_path: Path) -> None:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed: no certificate for the TLS test")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
                    "-out", str(cert), "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    passwords = tmp_path / "passwords"
    passwords.write_text(f"# pit bosses\nanna:{hash_pin('s3cret words')}\n")
    table = TableSource("T1", "tcp://127.0.0.1:9", "tcp://127.0.0.1:10")   # nobody there: fine
    monitor = Monitor("serve", [table], "--host=0.0.0.0", "--port=0", f"--tls-cert={cert}",
                      f"--tls-key={key}", f"--password-file={passwords}", f"--acks={tmp_path / 'acks'}",
                      log=tmp_path / "monitor.log")
    try:
        assert monitor.url.startswith("https://")
        assert monitor.first_line.endswith(f"{monitor.url} for 1 table\n")        # not "1 tables"
        url = "https://127.0.0.1:" + monitor.url.rsplit(":", 1)[1]
        context = ssl.create_default_context(cafile=str(cert))

        def ask(path: str, password: str | None, body: bytes | None = None,
                kind: str = "application/json") -> tuple[int, bytes]:
            request = urllib.request.Request(url + path, data=body, headers={"Content-Type": kind})
            if password is not None:
                token = base64.b64encode(f"anna:{password}".encode()).decode()
                request.add_header("Authorization", f"Basic {token}")
            try:
                with urllib.request.urlopen(request, context=context, timeout=10) as reply:
                    return reply.status, reply.read()
            except urllib.error.HTTPError as error:
                return error.code, error.read()

        assert ask("api/floor", None)[0] == 401
        assert ask("api/floor", "wrong")[0] == 401
        status, body = ask("api/floor", "s3cret words")
        assert status == 200 and [t["table"] for t in json.loads(body)["tables"]] == ["T1"]
        assert ask("", "s3cret words")[0] == 200
        assert ask("api/ack", "s3cret words", b'{"key": "T1//1"}')[0] == 404
        assert ask("api/ack", "s3cret words", b"key=T1//1", "application/x-www-form-urlencoded")[0] == 415
    finally:
        monitor.stop()


def test_a_password_file_or_tls_key_another_user_owns_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 26 item 3: whoever owns the password file may add a pit boss of their own."""
    if os.geteuid() != 0:
        pytest.skip("chown to another user needs root (these tests run as root on the test machine)")
    nobody = pwd.getpwnam("nobody")
    passwords, key = tmp_path / "passwords", tmp_path / "tls.key"
    passwords.write_text(f"anna:{hash_pin('s3cret words')}\n")
    key.write_text("not read: refused before\n")
    for path in (passwords, key):
        path.chmod(0o600)
        os.chown(path, nobody.pw_uid, nobody.pw_gid)
    assert main(["serve", "--table=T1=tcp://127.0.0.1:1", f"--password-file={passwords}",
                 f"--tls-cert={tmp_path / 'tls.crt'}", f"--tls-key={key}"]) == 2
    said = capsys.readouterr().err.splitlines()
    owner = f"is owned by uid {nobody.pw_uid} (nobody), neither root nor this user (uid 0 (root))"
    assert said == [f"pit-monitor: the password file {passwords} {owner}: chown root {passwords}",
                    f"pit-monitor: the TLS key {key} {owner}: chown root {key}"]
