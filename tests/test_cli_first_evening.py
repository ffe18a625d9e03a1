"""A newcomer's first evening on a laptop: `serve` says where everything is (also into a
log), and `admin-link` reads the running server's folder, not a guessed one."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from benchmarks.spawn import free_port, stop_process, wait_healthy
from scorekeeper.cli import main
from scorekeeper.config import load_settings
from scorekeeper.settings import Settings
from scorekeeper.web import running
from scorekeeper.web.admin_link import show_admin_link
from scorekeeper.web.reach import base_url

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Served:
    proc: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def text(self) -> str:
        return self.log.read_text(errors="replace")


@contextmanager
def serving(log: Path, *args: str, **env: str) -> Iterator[Served]:
    """`scorekeeper serve` as `make run` starts it, its output sent to `log` (not a TTY)."""
    port = free_port()
    cmd = [sys.executable, "-m", "scorekeeper", "serve", "--camera", "none",
           "--port", str(port), *args]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, env={**os.environ, **env}, stdout=out,
                                stderr=subprocess.STDOUT, cwd=ROOT)
    try:
        wait_healthy(proc, f"http://127.0.0.1:{port}", log, 60)
        yield Served(proc, port, log)
    finally:
        stop_process(proc)


def test_serve_help_names_the_data_folder_its_variable_and_the_port(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "$SCOREKEEPER_DATA_DIR" in text and "--data-dir" in text
    assert str(home / ".local" / "share" / "scorekeeper") in text  # the default, spelt out
    assert "$SCOREKEEPER_PORT" in text and "8000" in text


def test_serve_into_a_log_says_folder_addresses_and_link_and_admin_link_finds_it(
        home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The reported evening: a server started with SCOREKEEPER_DATA_DIR, its output in a
    log; `admin-link` run without the variable must show that server's link, and say so."""
    folder = home / "table"
    with serving(tmp_path / "serve.log", "--host", "0.0.0.0",
                 SCOREKEEPER_DATA_DIR=str(folder)) as srv:
        url = base_url("0.0.0.0", srv.port)
        link = (folder / "admin-link").read_text().strip()
        assert link.startswith(f"{url}#token=")
        log = srv.text
        assert f"data folder: {folder}" in log
        assert url in log and f":{srv.port}/" in log  # the LAN address, not only loopback
        assert link in log  # the user's own folder: the link itself, even into a file

        assert main(["admin-link"]) == 0  # no SCOREKEEPER_DATA_DIR here
        out, err = capsys.readouterr()
        assert out.splitlines()[0] == link
        assert f"the server running on port {srv.port} with data in {folder}" in err

        # asked for another folder (its link left from an older start): read, with a warning
        other = home / "old"
        other.mkdir()
        (other / "admin-link").write_text("http://10.0.0.9:8000/#token=old\n")
        assert main(["admin-link", "--data-dir", str(other)]) == 0
        out, err = capsys.readouterr()
        assert out.splitlines()[0] == "http://10.0.0.9:8000/#token=old"
        assert f"warning: no running server uses {other}" in err
        assert f"port {srv.port} with data in {folder}" in err  # and where one does run

        assert main(["admin-link", "--port", str(srv.port)]) == 0
        assert capsys.readouterr().out.splitlines()[0] == link
        assert main(["admin-link", "--port", "1"]) == 2
        assert "no server of yours is running on port 1" in capsys.readouterr().err
    # a clean exit takes its records away
    assert list((tmp_path / "run").glob("scorekeeper/server-*.json")) == []
    assert not (folder / running.FOLDER_RECORD).exists()


def test_a_folder_outside_the_home_keeps_its_link_out_of_the_log(home: Path,
                                                                 tmp_path: Path) -> None:
    folder = tmp_path / "srv"
    with serving(tmp_path / "serve.log", "--host", "127.0.0.1", "--data-dir", str(folder)) as srv:
        link = (folder / "admin-link").read_text().strip()
        token = link.partition("#token=")[2]
        assert token and token not in srv.text
        assert str(folder / "admin-link") in srv.text and f"data folder: {folder}" in srv.text


def _record(port: int, folder: Path, pid: int) -> Path:
    path = running.runtime_dir() / f"server-{port}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(running.RunningServer(data_dir=folder, port=port, pid=pid,
                                          url=f"http://10.0.0.2:{port}/",
                                          started=datetime.now(UTC)).model_dump_json())
    return path


def _dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_a_stale_record_is_said_ignored_and_removed(home: Path) -> None:
    stale = _record(8000, home / "gone", _dead_pid())
    default = home / ".local" / "share" / "scorekeeper"
    default.mkdir(parents=True)
    (default / "admin-link").write_text("http://10.0.0.2:8000/#token=mine\n")
    out, err = io.StringIO(), io.StringIO()
    assert show_admin_link(Settings(), out, err) == 0
    assert out.getvalue().splitlines()[0] == "http://10.0.0.2:8000/#token=mine"
    assert "stale record of a server on port 8000" in err.getvalue()
    assert f"warning: no running server uses {default}" in err.getvalue()
    assert not stale.exists()


def test_several_servers_and_no_folder_named_asks_which(home: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(running, "is_alive", lambda pid: True)
    _record(8000, home / "a", 11)
    _record(8001, home / "b", 12)
    out, err = io.StringIO(), io.StringIO()
    assert show_admin_link(Settings(), out, err) == 2
    assert out.getvalue() == ""
    assert "several servers are running" in err.getvalue()
    assert "scorekeeper admin-link --port 8001" in err.getvalue()


def test_an_unreadable_record_is_no_server(home: Path) -> None:
    bad = running.runtime_dir() / "server-8000.json"
    bad.parent.mkdir(parents=True)
    bad.write_text("{not json")
    assert running.running_servers() == ([], [])
    assert running.read(bad) is None


def test_an_empty_data_dir_variable_reads_as_unset(home: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """`SCOREKEEPER_DATA_DIR=` (a unit file's blank value) is no folder: read as a path it
    was the current one, and `admin-link` printed a link left there instead of the server's."""
    monkeypatch.setenv("SCOREKEEPER_DATA_DIR", "")
    monkeypatch.setenv("SCOREKEEPER_PORT", "")
    default = home / ".local" / "share" / "scorekeeper"
    assert Settings().data_dir == default and Settings().port == 8000
    assert load_settings().data_dir == default

    here = tmp_path / "cwd"
    here.mkdir()
    (here / "admin-link").write_text("http://10.0.0.9:8000/#token=stray\n")
    monkeypatch.chdir(here)
    monkeypatch.setattr(running, "is_alive", lambda pid: True)
    table = home / "table"
    table.mkdir()
    (table / "admin-link").write_text("http://10.0.0.2:8000/#token=served\n")
    _record(8000, table, 11)
    assert main(["admin-link"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0] == "http://10.0.0.2:8000/#token=served"
    assert f"data in {table}" in err
