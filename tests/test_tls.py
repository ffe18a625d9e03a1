"""HTTPS for the table server: the certificate settings checked at start, `tls self-signed`,
and a real server that answers over HTTPS and gives https:// addresses everywhere."""

from __future__ import annotations

import os
import shutil
import ssl
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from benchmarks.spawn import free_port, stop_process
from scorekeeper.cli import main
from scorekeeper.config import ConfigError, load_settings
from scorekeeper.settings import Settings
from scorekeeper.web import reach, tls
from scorekeeper.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl")


@pytest.fixture(scope="module")
def pairs(tmp_path_factory: pytest.TempPathFactory) -> tuple[tuple[Path, Path], tuple[Path, Path]]:
    """Two certificates with their keys, made apart (so one's key is not the other's)."""
    base = tmp_path_factory.mktemp("tls")
    return (tls.self_signed(base / "a", ["localhost", "127.0.0.1"]),
            tls.self_signed(base / "b", ["localhost"]))


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("SCOREKEEPER_TLS_CERT", "SCOREKEEPER_TLS_KEY", "SCOREKEEPER_CONFIG"):
        monkeypatch.delenv(name, raising=False)


def _checked(**given: object) -> tuple[Path, Path] | None:
    return tls.check_tls(load_settings(None, **given))


@pytest.mark.usefixtures("clean_env")
def test_both_or_neither_and_one_alone_names_the_missing_one(
        pairs: tuple[tuple[Path, Path], ...]) -> None:
    cert, key = pairs[0]
    assert _checked() is None and not load_settings(None).tls
    assert _checked(tls_cert=cert, tls_key=key) == (cert, key)
    with pytest.raises(ConfigError, match=r"tls_cert is set but tls_key is not.*--tls-key"):
        load_settings(None, tls_cert=cert)
    with pytest.raises(ConfigError, match=r"tls_key is set but tls_cert is not.*"
                                          r"SCOREKEEPER_TLS_CERT"):
        load_settings(None, tls_key=key)


def test_env_and_config_file_give_the_pair_relative_to_the_file(
        pairs: tuple[tuple[Path, Path], ...], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, clean_env: None) -> None:
    cert, key = pairs[0]
    config = cert.parent / "config.toml"
    config.write_text('[tls]\ncert = "cert.pem"\nkey = "key.pem"\n')
    settings = load_settings(config)
    assert (settings.tls_cert, settings.tls_key, settings.tls) == (cert, key, True)
    monkeypatch.setenv("SCOREKEEPER_TLS_CERT", str(cert))
    with pytest.raises(ConfigError, match="tls_key is not"):
        load_settings(None)
    monkeypatch.setenv("SCOREKEEPER_TLS_KEY", str(key))
    assert tls.check_tls(load_settings(None)) == (cert, key)


@pytest.mark.parametrize(("case", "message"), [
    ("missing cert", r"tls_cert .*nothere\.pem: no such file"),
    ("missing key", r"tls_key .*nothere\.pem: no such file"),
    ("other key", r"tls_key .*b/key\.pem is not the key of tls_cert .*a/cert\.pem"),
    ("not pem", r"tls_cert .*junk\.pem: not a PEM certificate"),
    ("encrypted key", r"tls_key .*enc\.pem: the key is encrypted"),
    ("damaged cert", r"tls_cert .*damaged\.pem with tls_key .*: cannot load them"),
])
@pytest.mark.usefixtures("clean_env")
def test_a_bad_file_is_a_clear_error_at_start(
        case: str, message: str, pairs: tuple[tuple[Path, Path], ...], tmp_path: Path) -> None:
    (cert, key), (_, other_key) = pairs
    (tmp_path / "junk.pem").write_text("hello\n")
    (tmp_path / "enc.pem").write_text("-----BEGIN ENCRYPTED PRIVATE KEY-----\nAA==\n"
                                      "-----END ENCRYPTED PRIVATE KEY-----\n")
    (tmp_path / "damaged.pem").write_text("-----BEGIN CERTIFICATE-----\nAAAA\n"
                                          "-----END CERTIFICATE-----\n")
    missing = tmp_path / "nothere.pem"
    given = {"missing cert": (missing, key), "missing key": (cert, missing),
             "other key": (cert, other_key), "not pem": (tmp_path / "junk.pem", key),
             "encrypted key": (cert, tmp_path / "enc.pem"),
             "damaged cert": (tmp_path / "damaged.pem", key)}[case]
    with pytest.raises(ConfigError, match=message):
        _checked(tls_cert=given[0], tls_key=given[1])


def _sans(cert: Path) -> str:
    return subprocess.run(["openssl", "x509", "-in", str(cert), "-noout", "-ext",
                           "subjectAltName"], capture_output=True, text=True, check=True).stdout


def test_self_signed_names_the_hosts_given_key_private_and_keeps_an_existing_pair(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reach, "_routed_ip", lambda: "192.168.1.20")
    out = tmp_path / "certs"
    assert main(["tls", "self-signed", "--out", str(out), "--name", "Table.Club.lan",
                 "--name", "10.1.2.3"]) == 0
    printed = capsys.readouterr().out
    cert, key = out / "cert.pem", out / "key.pem"
    sans = _sans(cert)
    for name in ("DNS:table.club.lan", "IP Address:10.1.2.3", "IP Address:192.168.1.20",
                 "DNS:localhost"):
        assert name in sans
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert f'[tls]\ncert = "{cert}"\nkey = "{key}"' in printed
    assert sorted(p.name for p in out.iterdir()) == ["cert.pem", "key.pem"]  # no leftovers

    before = cert.read_bytes(), key.read_bytes()
    assert main(["tls", "self-signed", "--out", str(out)]) == 2
    assert "already there: kept" in capsys.readouterr().err
    assert (cert.read_bytes(), key.read_bytes()) == before
    assert main(["tls", "self-signed", "--out", str(out), "--force"]) == 0
    assert cert.read_bytes() != before[0]


def test_self_signed_refuses_bad_names_days_and_a_missing_openssl(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "certs"
    assert main(["tls", "self-signed", "--out", str(out), "--name", "a,DNS:evil"]) == 2
    assert "'a,DNS:evil' is neither a host name nor an IP address" in capsys.readouterr().err
    assert main(["tls", "self-signed", "--out", str(out), "--days", "3650"]) == 2
    assert "phones refuse longer" in capsys.readouterr().err
    monkeypatch.setattr(tls.shutil, "which", lambda name: None)
    assert main(["tls", "self-signed", "--out", str(out)]) == 2
    assert "openssl command is missing" in capsys.readouterr().err
    assert not out.exists() or list(out.iterdir()) == []


def test_addresses_say_https_when_tls_is_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reach, "_routed_ip", lambda: "192.168.1.20")
    monkeypatch.setattr(reach, "_host_ips", lambda: ["fd00::5"])
    settings = Settings(data_dir=tmp_path, camera="none", host="0.0.0.0", port=8443,
                        tls_cert=tmp_path / "c.pem", tls_key=tmp_path / "k.pem")
    with TestClient(create_app(settings, token="t")) as client:
        assert client.get("/api/addresses").json()["urls"] == [
            "https://192.168.1.20:8443/", "https://[fd00::5]:8443/"]


def _serve(log: Path, port: int, *args: str) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen([sys.executable, "-m", "scorekeeper", "serve", "--camera",
                                 "none", "--port", str(port), *args], env=dict(os.environ),
                                stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)


def _healthy(proc: subprocess.Popen[bytes], url: str, cert: Path, log: Path) -> httpx.Client:
    client = httpx.Client(verify=ssl.create_default_context(cafile=str(cert)), timeout=2)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text(errors="replace")[-3000:]
        try:
            if client.get(f"{url}/api/health").status_code == 200:
                return client
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError(f"no answer over HTTPS:\n{log.read_text(errors='replace')[-3000:]}")


@pytest.fixture
def served(home: Path, tmp_path: Path) -> Iterator[tuple[int, Path, Path, httpx.Client]]:
    """A real `serve` on HTTPS with a certificate `tls self-signed` made."""
    certs, folder, log, port = tmp_path / "certs", home / "table", tmp_path / "serve.log", \
        free_port()
    assert main(["tls", "self-signed", "--out", str(certs)]) == 0
    proc = _serve(log, port, "--host", "0.0.0.0", "--data-dir", str(folder),
                  "--tls-cert", str(certs / "cert.pem"), "--tls-key", str(certs / "key.pem"))
    try:
        client = _healthy(proc, f"https://127.0.0.1:{port}", certs / "cert.pem", log)
        try:
            yield port, folder, log, client
        finally:
            client.close()
    finally:
        stop_process(proc)


def test_serve_answers_over_https_and_every_address_it_gives_says_https(
        served: tuple[int, Path, Path, httpx.Client],
        capsys: pytest.CaptureFixture[str]) -> None:
    port, folder, log, client = served
    url = reach.base_url("0.0.0.0", port, tls=True)
    assert url.startswith("https://")
    text = log.read_text(errors="replace")
    link = (folder / "admin-link").read_text().strip()
    assert link.startswith(f"{url}#token=") and link in text
    assert "on any phone on this network" in text and url in text
    assert "http://" not in text
    assert all(u.startswith("https://") for u in client.get(
        f"https://127.0.0.1:{port}/api/addresses").json()["urls"])
    capsys.readouterr()
    assert main(["admin-link", "--port", str(port)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == link
    record = (folder / "server.json").read_text()
    assert f'"url":"{url}"' in record


def test_serve_with_a_bad_pair_stops_with_the_reason_not_a_traceback(
        home: Path, tmp_path: Path, pairs: tuple[tuple[Path, Path], ...]) -> None:
    (cert, _), (_, other_key) = pairs
    log = tmp_path / "serve.log"
    proc = _serve(log, free_port(), "--data-dir", str(home / "t"), "--tls-cert", str(cert),
                  "--tls-key", str(other_key))
    assert proc.wait(60) == 2
    text = log.read_text()
    assert "is not the key of tls_cert" in text and "Traceback" not in text
    proc = _serve(log, free_port(), "--data-dir", str(home / "t"), "--tls-cert", str(cert))
    assert proc.wait(60) == 2
    assert "tls_cert is set but tls_key is not" in log.read_text()
