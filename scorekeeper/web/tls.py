"""HTTPS for the table server: the certificate and key checked at start, and a self-signed
pair for a table without its own.

Phones give a page its service worker (the offline reload) and the camera (the live
viewfinder) only in a secure context: HTTPS, or localhost. On the table's Wi-Fi that means
HTTPS. The pair is checked before uvicorn starts, as uvicorn would stop on a bad file with
a traceback, and would ask on the terminal for an encrypted key's password.
"""

from __future__ import annotations

import ipaddress
import re
import shutil
import socket
import ssl
import subprocess
import tempfile
from pathlib import Path

from scorekeeper.config import ConfigError
from scorekeeper.files import write_atomic
from scorekeeper.settings import Settings

CERT_FILE = "cert.pem"
KEY_FILE = "key.pem"
# Apple's devices refuse a server certificate valid for longer (and Chrome follows).
MAX_DAYS = 825
HOSTNAME = re.compile(r"^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9-]{1,63})*$")


def _pem(path: Path, what: str, marker: str) -> str:
    """The file's text, which must hold a PEM block ending in `marker`."""
    try:
        text = path.read_text(encoding="ascii")
    except FileNotFoundError:
        raise ConfigError(f"{what} {path}: no such file") from None
    except PermissionError:
        raise ConfigError(f"{what} {path}: cannot read it (the server's user must be able "
                          f"to: for a service, chown it to that user)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{what} {path}: cannot read it as PEM text: {exc}") from None
    if f"{marker}-----" not in text:
        raise ConfigError(f"{what} {path}: not a PEM {marker.lower()} (no "
                          f"'-----BEGIN ...{marker}-----' line)")
    return text


def check_tls(settings: Settings) -> tuple[Path, Path] | None:
    """The certificate and key to serve HTTPS with, once they are known to load together;
    None without TLS. Raises ConfigError naming the file and what is wrong with it."""
    if settings.tls_cert is None or settings.tls_key is None:
        return None
    cert, key = settings.tls_cert.expanduser(), settings.tls_key.expanduser()
    _pem(cert, "tls_cert", "CERTIFICATE")
    if "ENCRYPTED" in _pem(key, "tls_key", "PRIVATE KEY"):
        raise ConfigError(f"tls_key {key}: the key is encrypted; the server needs it without "
                          f"a password (openssl pkey -in {key} -out plain.pem, then keep that "
                          f"file readable by the server's user only)")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(cert, key, password=lambda: "")
    except ssl.SSLError as exc:
        if "KEY_VALUES_MISMATCH" in str(exc) or "key values mismatch" in str(exc):
            raise ConfigError(f"tls_key {key} is not the key of tls_cert {cert}: give the "
                              f"pair made together") from None
        raise ConfigError(f"tls_cert {cert} with tls_key {key}: cannot load them (is "
                          f"either file damaged?): {exc}") from None
    return cert, key


def default_names() -> list[str]:
    """What phones may call this machine: its name, name.local (mDNS), its LAN addresses,
    and localhost for a screen on the machine itself."""
    from scorekeeper.web.reach import lan_addresses

    host = socket.gethostname().strip()
    names = [host, f"{host}.local"] if host and host != "localhost" else []
    return [*names, *lan_addresses("0.0.0.0"), "localhost", "127.0.0.1"]


def san_entry(name: str) -> str:
    """`name` as a subjectAltName entry (IP: or DNS:); ValueError for neither."""
    text = name.strip().strip("[]")
    try:
        return f"IP:{ipaddress.ip_address(text)}"
    except ValueError:
        pass
    if HOSTNAME.fullmatch(text) is None and not (text.startswith("*.")
                                                 and HOSTNAME.fullmatch(text[2:])):
        raise ValueError(f"{name!r} is neither a host name nor an IP address")
    return f"DNS:{text.lower()}"


def self_signed(out: Path, names: list[str], days: int = MAX_DAYS,
                force: bool = False) -> tuple[Path, Path]:
    """Write `out`/cert.pem and `out`/key.pem (0600): a self-signed certificate for `names`
    (host names and IP addresses), made by the `openssl` command. An existing pair is kept
    unless `force`. Raises ValueError for bad input, OSError when openssl is missing or
    fails."""
    if not 1 <= days <= MAX_DAYS:
        raise ValueError(f"days must be 1 to {MAX_DAYS} (phones refuse longer), got {days}")
    entries = list(dict.fromkeys(san_entry(name) for name in names))
    if not entries:
        raise ValueError("no names to put in the certificate: give --name HOST")
    cert, key = out / CERT_FILE, out / KEY_FILE
    present = [str(path) for path in (cert, key) if path.exists()]
    if present and not force:
        raise ValueError(f"{' and '.join(present)} already there: kept (a phone that "
                         f"trusts it would have to accept a new one); --force replaces it")
    openssl = shutil.which("openssl")
    if openssl is None:
        raise OSError("the openssl command is missing: install it (sudo apt install "
                      "openssl), or point tls_cert and tls_key at a certificate you have")
    common = next((e[4:] for e in entries if e.startswith("DNS:")), entries[0][3:])[:64]
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".tls-", dir=out) as work:  # 0700: key stays ours
        made_cert, made_key = Path(work) / CERT_FILE, Path(work) / KEY_FILE
        command = [openssl, "req", "-x509", "-newkey", "ec",
                   "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-sha256",
                   "-days", str(days), "-subj", f"/CN={common}",
                   "-keyout", str(made_key), "-out", str(made_cert),
                   "-addext", f"subjectAltName={','.join(entries)}",
                   "-addext", "extendedKeyUsage=serverAuth"]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise OSError(f"openssl failed ({done.returncode}): {done.stderr.strip()[-500:]}")
        write_atomic(key, made_key.read_bytes(), private=True)
        write_atomic(cert, made_cert.read_bytes())
    return cert, key
