"""Faults that would lose or hide data: a store that cannot write, a second server on the
same file, a damaged file, and the admin link kept out of the system journal.

Disk full and read-only are injected at the store's connection (portable, any user);
where this process may mount a tmpfs (root with CAP_SYS_ADMIN) the real thing is tried too.
"""

from __future__ import annotations

import io
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from benchmarks.spawn import start_server
from scorekeeper import cli
from scorekeeper.settings import Settings
from scorekeeper.store import GameStore, backup_schedule
from scorekeeper.store import health as store_health
from scorekeeper.store.backup import list_backups
from scorekeeper.store.faults import StoreDamaged, StoreLocked, classify, explain
from scorekeeper.web.app import create_app
from scorekeeper.web.server import banner, goes_to_a_log, show_admin_link

TOKEN = "secret"
ADMIN = {"Authorization": f"Bearer {TOKEN}"}
WON = [{"name": "Ann", "hand": [], "went_out": True}, {"name": "Bob", "hand": ["9C"]}]
HAND = [{"name": "Ann", "hand": [], "went_out": True}, {"name": "Bob", "hand": ["KD", "AC"]}]
WRITES = ("INSERT", "UPDATE", "DELETE", "COMMIT")


class FailingWrites:
    """Stands in for the store's connection: every write statement raises `message`."""

    def __init__(self, conn: sqlite3.Connection, message: str) -> None:
        self.conn, self.message = conn, message

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql.lstrip().split()[0].upper() in WRITES:
            raise sqlite3.OperationalError(self.message)
        return self.conn.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setattr(store_health, "PROBE_TTL_S", 0.0)  # every health call probes afresh
    app = create_app(Settings(data_dir=tmp_path, camera="none"), token=TOKEN)
    with TestClient(app) as c:
        yield c


def inject(client: TestClient, message: str) -> GameStore:
    store: GameStore = client.app.state.parts.store  # type: ignore[attr-defined]
    store._conn = FailingWrites(store._conn, message)  # type: ignore[assignment]
    return store


def heal(store: GameStore) -> None:
    store._conn = store._conn.conn  # type: ignore[attr-defined]


def new_game(client: TestClient, **settings: Any) -> int:
    r = client.post("/api/games", json={"variant": "rummy", "players": ["Ann", "Bob"],
                                        "settings": settings}, headers=ADMIN)
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


# --- 1. health tells whether the store can write; a failed write is a 503 in words ---------

def test_health_reports_a_writable_store(client: TestClient) -> None:
    r = client.get("/api/health")
    body = r.json()
    assert r.status_code == 200 and body["ok"] and body["db"] == "ok"
    assert body["store"]["writable"] is True and body["store"]["problem"] is None
    assert body["store"]["free_mib"] > 0


@pytest.mark.parametrize(("message", "words"), [
    ("database or disk is full", "the disk is full"),
    ("attempt to write a readonly database", "the storage is read-only"),
    ("database disk image is malformed", "the database is damaged"),
])
def test_a_failed_write_is_a_503_in_words_and_health_says_so(
        client: TestClient, message: str, words: str) -> None:
    gid = new_game(client)
    store = inject(client, message)
    r = client.post(f"/api/games/{gid}/hands", json={"players": HAND}, headers=ADMIN)
    assert r.status_code == 503
    assert r.headers["content-type"].startswith("application/json")
    assert r.json()["detail"].startswith(f"the scorekeeper cannot save: {words}")
    health = client.get("/api/health")
    assert health.status_code == 503
    body = health.json()
    assert body["ok"] is False and body["store"]["writable"] is False
    assert words in body["store"]["problem"] and words in body["detail"]
    assert words in body["store"]["last_write_error"]["detail"]

    heal(store)
    if words != "the database is damaged":  # the file is fine: health recovers at once
        assert client.get("/api/health").status_code == 200
    r = client.post(f"/api/games/{gid}/hands", json={"players": HAND}, headers=ADMIN)
    assert r.status_code == 201 and r.json()["n"] == 1  # the refused hand left no trace
    body = client.get("/api/health").json()
    assert body["ok"] and "last_write_error" not in body["store"]


def test_a_read_that_fails_is_a_503_in_words(client: TestClient) -> None:
    gid = new_game(client)
    store: GameStore = client.app.state.parts.store  # type: ignore[attr-defined]
    store._cache.clear()

    class Damaged(FailingWrites):
        def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
            raise sqlite3.DatabaseError(self.message)

    store._conn = Damaged(store._conn, "database disk image is malformed")  # type: ignore
    r = client.get(f"/api/games/{gid}")
    assert r.status_code == 503
    assert r.json()["detail"].startswith(
        "the scorekeeper cannot read its games: the database is damaged")
    assert client.get("/api/health").json()["db"].startswith("error: the scorekeeper cannot")
    heal(store)


def test_faults_are_classified_by_code_errno_and_words() -> None:
    assert classify(OSError(28, "No space left on device")) == "full"
    assert classify(OSError(30, "Read-only file system")) == "readonly"
    assert classify(sqlite3.OperationalError("database or disk is full")) == "full"
    assert classify(sqlite3.OperationalError("no such table: x")) == "other"
    assert explain(sqlite3.OperationalError("no such table: x")) == \
        "the scorekeeper cannot save: database error: no such table: x"


def test_health_sees_a_disk_with_no_space_left(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    free = os.statvfs(".")

    class Full:
        f_bavail, f_frsize, f_flag = 10, free.f_frsize, 0

    monkeypatch.setattr(store_health.os, "statvfs", lambda _: Full())
    body = client.get("/api/health").json()
    assert body["ok"] is False
    assert body["store"]["problem"].startswith("the scorekeeper cannot save: the disk is full")


def test_read_only_files_for_a_non_root_user(tmp_path: Path) -> None:
    """chmod binds only users without CAP_DAC_OVERRIDE: as root, check as user nobody."""
    root = os.geteuid() == 0
    base = Path(tempfile.mkdtemp(prefix="sk-ro-")) if root else tmp_path
    try:
        data = base / "data"
        store = GameStore(data / "games.db")
        store.create("rummy", ["Ann", "Bob"])
        store.close()
        code = ("import sys; from pathlib import Path; from scorekeeper.store import GameStore; "
                "s = GameStore(Path(sys.argv[1])); print(s.health.report()['problem'])")
        cmd = [sys.executable, "-c", code, str(data / "games.db")]
        if root:
            base.chmod(0o755)
            data.chmod(0o777)  # nobody may make the lock and WAL files, not write the db
            cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
        else:
            (data / "games.db").chmod(0o444)
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60,
                              cwd=Path(__file__).resolve().parent.parent)
        assert done.returncode == 0, done.stderr
        assert "the storage is read-only" in done.stdout
    finally:
        if root:
            shutil.rmtree(base)


def _mount_tmpfs(where: Path, size: str) -> bool:
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True)
    return done.returncode == 0


def test_a_real_full_disk_and_a_read_only_remount(tmp_path: Path) -> None:
    """On a 1 MiB tmpfs: fill it, then remount it read-only (needs root and mount rights)."""
    mnt = tmp_path / "mnt"
    if os.geteuid() != 0 or not _mount_tmpfs(mnt, "1m"):
        pytest.skip("cannot mount a tmpfs here")
    try:
        app = create_app(Settings(data_dir=mnt, camera="none"), token=TOKEN)
        with TestClient(app) as c:
            gid = new_game(c, target=100_000)  # the largest: never reached here
            answered = 0
            for _ in range(2000):
                r = c.post(f"/api/games/{gid}/hands", json={"players": HAND}, headers=ADMIN)
                if r.status_code != 201:
                    break
                answered += 1
            assert r.status_code == 503, r.text
            assert r.json()["detail"].startswith("the scorekeeper cannot save: the disk is full")
            app.state.parts.store.health._probe = None
            assert "the disk is full" in c.get("/api/health").json()["store"]["problem"]
            assert len(c.get(f"/api/games/{gid}").json()["hands"]) == answered
            # the kernel's errors=remount-ro cannot be had from user space while files are
            # open for writing; a read-only bind mount over the folder reads the same
            subprocess.run(["mount", "--bind", str(mnt), str(mnt)], check=True)
            subprocess.run(["mount", "-o", "remount,bind,ro", str(mnt)], check=True)
            app.state.parts.store.health._probe = None
            problem = c.get("/api/health").json()["store"]["problem"]
            assert "the storage is read-only" in problem
    finally:
        for _ in range(2):
            subprocess.run(["umount", "-l", str(mnt)], check=False, capture_output=True)


# --- 2. one server per database file -------------------------------------------------------

def test_a_second_store_on_the_same_file_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    first = GameStore(db)
    with pytest.raises(StoreLocked) as refused:
        GameStore(db)
    message = str(refused.value)
    assert f"{db}.lock" in message and f"pid {os.getpid()}" in message
    assert "stale" in message and "systemctl stop scorekeeper" in message
    first.close()
    GameStore(db).close()  # free again once the first is closed


def test_a_second_server_on_the_same_file_exits_with_a_clear_message(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    first = start_server(db, tmp_path / "one", TOKEN)
    try:
        with pytest.raises(RuntimeError) as refused:
            start_server(db, tmp_path / "two", TOKEN, timeout=30)
        text = str(refused.value)
        assert "exited with 2" in text and f"{db}.lock" in text
        assert f"pid {first.pid}" in text and "Traceback" not in text
    finally:
        first.stop()


# --- 3. damaged files are found; backups are taken and restore ----------------------------

def play(store: GameStore, games: int = 3) -> list[dict[str, Any]]:
    """Games won in one hand each (each end makes a backup); returns the list as the last
    one ended, then starts one more that is still running."""
    for _ in range(games):
        gid = store.create("rummy", ["Ann", "Bob"], {"target": 5})["id"]
        store.append(gid, {"type": "hand", "players": WON})
    ended = store.games()
    gid = store.create("rummy", ["Cy", "Di"])["id"]
    store.append(gid, {"type": "hand", "players": [{**WON[0], "name": "Cy"},
                                                  {**WON[1], "name": "Di"}]})
    return ended


def damage(db: Path, pages: tuple[int, ...] = (2, 3)) -> None:
    """Overwrite the start of some b-tree pages, as a failing card might."""
    data = bytearray(db.read_bytes())
    size = int.from_bytes(data[16:18], "big")
    for page in pages:
        data[(page - 1) * size:(page - 1) * size + 256] = b"\xa5" * 256
    db.write_bytes(bytes(data))


def test_each_finished_game_is_backed_up_and_rotated(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    store = GameStore(db, keep_backups=2)
    play(store, games=4)
    game_backups = list_backups(db, kind="game")
    assert len(game_backups) == 2  # four games ended; the newest two are kept
    assert list_backups(db, kind="daily") == []  # a game's backup counts for the day
    conn = sqlite3.connect(game_backups[-1])
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one file
    assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 4
    conn.close()
    store.close()


def test_a_daily_backup_when_the_last_is_a_day_old(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.db")
    gid = store.create("rummy", ["Ann", "Bob"])["id"]
    store.append(gid, {"type": "hand", "players": HAND})
    assert len(list_backups(store.path, kind="daily")) == 1
    store.append(gid, {"type": "hand", "players": HAND})
    assert len(list_backups(store.path, kind="daily")) == 1
    store.backups.last_at -= backup_schedule.DAILY_S
    store.append(gid, {"type": "hand", "players": HAND})
    assert len(list_backups(store.path, kind="daily")) == 2
    store.close()


def test_a_backup_that_fails_never_fails_the_write(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = GameStore(tmp_path / "games.db")

    def full(*_: Any, **__: Any) -> Path:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(backup_schedule, "make_backup", full)
    gid = store.create("rummy", ["Ann", "Bob"], {"target": 5})["id"]
    view, _ = store.append(gid, {"type": "hand", "players": WON})
    assert view["game_over"] and store.get(gid)["seq"] == 1
    assert "the disk is full" in (store.backups.error or "")
    assert "the disk is full" in store.health.report()["backup"]["error"]
    store.close()


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_damaged_file_is_reported_at_start_and_by_db_check_then_restored(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCOREKEEPER_CONFIG", raising=False)
    db = tmp_path / "games.db"
    store = GameStore(db)
    before = play(store)
    store.close()
    assert run_cli(capsys, "db", "check", "--db", str(db))[0] == 0

    damage(db)
    with pytest.raises(StoreDamaged) as refused:
        GameStore(db)
    newest = list_backups(db)[-1]
    assert "is damaged" in str(refused.value)
    assert f"scorekeeper db restore {newest}" in str(refused.value)
    code, _, err = run_cli(capsys, "db", "check", "--db", str(db))
    assert code == 1 and "is damaged" in err and f"db restore {newest}" in err

    code, out, err = run_cli(capsys, "db", "restore", str(newest), "--db", str(db))
    assert code == 0, err
    assert "kept as" in out and "damaged" in out
    again = GameStore(db)
    assert again.games() == before  # the newest backup: taken as the last game ended
    again.close()


def test_db_backup_beside_a_live_store_and_restore_gives_the_same_games(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCOREKEEPER_CONFIG", raising=False)
    db = tmp_path / "games.db"
    store = GameStore(db)
    play(store)
    before = store.games()
    views = [store.get(g["id"]) for g in before]
    copy = tmp_path / "copy.db"
    code, out, err = run_cli(capsys, "db", "backup", "--db", str(db), "--to", str(copy))
    assert code == 0 and "4 games" in out, err
    code, _, err = run_cli(capsys, "db", "restore", str(copy), "--db", str(db))
    assert code == 2 and "already using the database" in err  # refused while served
    gid = store.create("rummy", ["Late", "Comer"])["id"]
    store.close()

    code, out, err = run_cli(capsys, "db", "restore", str(copy), "--db", str(db))
    assert code == 0, err
    again = GameStore(db)
    assert again.games() == before and [again.get(v["id"]) for v in views] == views
    assert gid not in [g["id"] for g in again.games()]
    kept = next(p for p in list_backups(db, kind="before-restore"))
    assert sqlite3.connect(kept).execute("SELECT count(*) FROM games").fetchone()[0] == 5
    again.close()


def test_db_restore_refuses_what_is_no_scorekeeper_backup(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    code, _, err = run_cli(capsys, "db", "restore", str(other), "--db", str(tmp_path / "g.db"))
    assert code == 2 and "not a scorekeeper database" in err
    code, _, err = run_cli(capsys, "db", "check", "--db", str(tmp_path / "none.db"))
    assert code == 2 and "no database at" in err


# --- 5. the admin link stays out of the journal -------------------------------------------

def test_banner_for_a_log_names_the_file_and_command_but_not_the_token(tmp_path: Path) -> None:
    out = io.StringIO()
    banner("http://10.0.0.5:8000/", "tok-123", "new", tmp_path / "db", out,
           link_file=tmp_path / "admin-link", show_link=False,
           command="sudo scorekeeper admin-link")
    text = out.getvalue()
    assert "tok-123" not in text
    assert str(tmp_path / "admin-link") in text and "sudo scorekeeper admin-link" in text
    assert "http://10.0.0.5:8000/" in text


def test_output_for_systemd_or_a_file_counts_as_a_log(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("INVOCATION_ID", raising=False)
    monkeypatch.delenv("JOURNAL_STREAM", raising=False)
    assert goes_to_a_log(io.StringIO()) and not goes_to_a_log(Tty())
    monkeypatch.setenv("INVOCATION_ID", "abc")
    assert goes_to_a_log(Tty())


def test_the_served_link_is_in_a_0600_file_not_in_the_log(tmp_path: Path) -> None:
    data = tmp_path / "data"
    srv = start_server(tmp_path / "games.db", data, TOKEN)
    try:
        link_file = data / "admin-link"
        assert stat.S_IMODE(link_file.stat().st_mode) == 0o600
        assert link_file.read_text().strip() == f"{srv.url}/#token={TOKEN}"
        log = srv.log.read_text()
        assert TOKEN not in log and str(link_file) in log and "admin-link" in log
    finally:
        srv.stop()
    out, err = io.StringIO(), io.StringIO()
    assert show_admin_link(Settings(data_dir=data), out, err) == 0
    assert out.getvalue().strip() == f"{srv.url}/#token={TOKEN}"
    assert show_admin_link(Settings(data_dir=tmp_path / "none"), out, err) == 2
    assert "no admin link" in err.getvalue()
