"""`make run` (scorekeeper serve) tells whether phones can use the address it prints."""

from __future__ import annotations

import io
from pathlib import Path

from scorekeeper.web.server import banner, is_loopback, reach_note


def test_loopback_is_recognised() -> None:
    assert all(is_loopback(h) for h in ("127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "::", "192.168.1.20", "pi.local"))


def test_a_loopback_server_says_phones_cannot_reach_it() -> None:
    note = reach_note("127.0.0.1", "127.0.0.1")
    assert note is not None and "this machine only" in note and "--host 0.0.0.0" in note
    assert reach_note("0.0.0.0", "192.168.1.20") is None
    assert reach_note("192.168.1.20", "192.168.1.20") is None
    lost = reach_note("0.0.0.0", "127.0.0.1")  # every interface, but no network address
    assert lost is not None and "no network address" in lost


def test_the_banner_prints_the_note_under_the_address(tmp_path: Path) -> None:
    out = io.StringIO()
    note = reach_note("127.0.0.1", "127.0.0.1")
    banner("http://127.0.0.1:8000/", "tok", "new", tmp_path / "db", out, reach=note)
    lines = out.getvalue().splitlines()
    assert lines[0] == "scorekeeper: serving at http://127.0.0.1:8000/"
    assert lines[1] == note
    plain = io.StringIO()
    banner("http://10.0.0.5:8000/", "tok", "new", tmp_path / "db", plain)
    assert "Note:" not in plain.getvalue()
    assert "open http://10.0.0.5:8000/ on any phone on this network" in plain.getvalue()
