"""CURVE keys: the table's key pair and the pit clients it admits, as ``zmq.auth`` certificates.

``table-controller keys generate`` writes ``<name>.key`` (the public certificate, to
hand to the pit) and ``<name>.key_secret`` (both keys, for ``pit.curve_secret_key``),
and creates the ``clients`` folder (for ``pit.curve_clients``). The pair is written in
a private folder (0700) inside the target and moved into place with its final modes,
secret 0600 and public 0644, so the secret key is never readable by others, not even
for an instant. Existing keys are never overwritten unless asked.

``table-controller keys add-client`` authorises one pit client: its public key (a
certificate file or the 40-character Z85 text) is written as ``<clients>/<name>.key``.
A certificate holding a secret key is refused: a client's secret never leaves it.
The daemon reads the clients folder at start; restart it to admit a new client.

>>> parse_public_key("rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7")
b'rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7'
>>> parse_public_key("not a key")
Traceback (most recent call last):
...
controller.security.keys.KeyProblem: not a CURVE public key: a certificate file or 40 Z85 characters
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import zmq
import zmq.auth
from zmq.utils import z85

SECRET_MODE = 0o600
PUBLIC_MODE = 0o644
FOLDER_MODE = 0o750
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_Z85 = re.compile(r"[0-9a-zA-Z.\-:+=^!/*?&<>()\[\]{}@%$#]{40}")


class KeyProblem(Exception):
    """A key operation that cannot be done; the message says why."""


@dataclass(frozen=True)
class KeyPair:
    """The files of a generated key pair and its public key (Z85)."""

    public_file: Path
    secret_file: Path
    public_key: str


def _check_name(name: str) -> None:
    if not _NAME.fullmatch(name):
        raise KeyProblem(f"{name!r} is not a key name: letters, digits, '.', '_' and '-' only")


def generate(folder: Path, name: str = "table", *, owner: str | None = None,
             force: bool = False) -> KeyPair:
    """Write a new key pair ``<folder>/<name>.key`` and ``.key_secret`` and the ``clients`` folder.

    ``owner`` (a user name) gets the secret key, which only it may then read (needs root).
    """
    _check_name(name)
    public_file, secret_file = folder / f"{name}.key", folder / f"{name}.key_secret"
    for path in (public_file, secret_file):
        if path.exists() and not force:
            raise KeyProblem(f"{path} exists: keep it, or pass --force to replace the key pair")
    folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    (folder / "clients").mkdir(mode=FOLDER_MODE, exist_ok=True)
    private = Path(tempfile.mkdtemp(prefix=".new-keys-", dir=folder))  # mode 0700
    try:
        made_public, made_secret = (Path(p) for p in zmq.auth.create_certificates(private, name))
        made_secret.chmod(SECRET_MODE)
        made_public.chmod(PUBLIC_MODE)
        if owner is not None:
            shutil.chown(made_secret, user=owner)
        os.replace(made_secret, secret_file)
        os.replace(made_public, public_file)
    except LookupError:
        raise KeyProblem(f"{owner!r} is not a user on this system") from None
    finally:
        shutil.rmtree(private, ignore_errors=True)
    public, _ = zmq.auth.load_certificate(public_file)
    return KeyPair(public_file, secret_file, public.decode())


def parse_public_key(text: str) -> bytes:
    """A Z85 CURVE public key checked to decode to 32 bytes."""
    text = text.strip()
    if not _Z85.fullmatch(text) or len(z85.decode(text)) != 32:
        raise KeyProblem("not a CURVE public key: a certificate file or 40 Z85 characters")
    return text.encode()


def read_public_key(source: str) -> bytes:
    """The public key given as a certificate file's path or as Z85 text."""
    path = Path(source)
    if not path.is_file():
        return parse_public_key(source)
    try:
        public, secret = zmq.auth.load_certificate(path)
    except (OSError, ValueError) as error:
        raise KeyProblem(f"{path}: {error}") from None
    if secret is not None:
        raise KeyProblem(f"{path} holds a secret key: give the client's public certificate (.key) only")
    return parse_public_key(public.decode())


def add_client(clients: Path, source: str, name: str, *, force: bool = False) -> Path:
    """Authorise the public key ``source`` (file or Z85) as ``<clients>/<name>.key``."""
    _check_name(name)
    public = read_public_key(source)
    if not clients.is_dir():
        raise KeyProblem(f"the clients folder {clients} does not exist (keys generate makes it)")
    target = clients / f"{name}.key"
    if target.exists() and not force:
        raise KeyProblem(f"{target} exists: choose another --name, or pass --force to replace it")
    for other in sorted(clients.glob("*.key")):
        if other != target and zmq.auth.load_certificate(other)[0] == public:
            raise KeyProblem(f"this key is already authorised as {other}")
    text = ("#   ZeroMQ CURVE public certificate of a pit client,"
            " authorised by table-controller keys add-client\n"
            f"metadata\n    name = \"{name}\"\ncurve\n    public-key = \"{public.decode()}\"\n")
    fd, temporary = tempfile.mkstemp(prefix=".new-", dir=clients)
    try:
        with os.fdopen(fd, "w") as out:
            out.write(text)
        os.chmod(temporary, PUBLIC_MODE)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return target
