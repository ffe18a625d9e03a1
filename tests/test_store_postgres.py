"""PostgreSQL's own concerns: several processes on one game, a URL's password never shown,
a wrong URL said in words, health and backups the server's way, dropped connections.

The contract both databases keep is in test_store.py (`any_store`); these need a server
(tests/pg.py) except the pure ones at the top.
"""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scorekeeper import cli
from scorekeeper.config import main as config_main
from scorekeeper.config import read_config
from scorekeeper.settings import Settings
from scorekeeper.store import GameStore, RequestKey, Written, admin
from scorekeeper.store.database import redact, scrub
from scorekeeper.store.faults import StoreError, StoreFault, explain
from scorekeeper.store.opener import open_database
from scorekeeper.store.postgres import to_pyformat
from scorekeeper.store.schema import SCHEMA_VERSION
from scorekeeper.store.sqlite import split_script
from scorekeeper.web.app import create_app

ROOT = Path(__file__).resolve().parents[1]
SECRET = "hunter2-s3cret"
WON = [{"name": "Ann", "hand": [], "went_out": True}, {"name": "Bob", "hand": ["9C"]}]
HAND = [{"name": "Ann", "hand": [], "went_out": True}, {"name": "Bob", "hand": ["2C"]}]


def with_password(url: str) -> str:
    """`url` carrying a password (the test server trusts local users, so it is ignored)."""
    return url.replace("postgresql://postgres@", f"postgresql://postgres:{SECRET}@", 1)


# --- without a server ------------------------------------------------------------------------

def test_redact_hides_every_password_and_nothing_else() -> None:
    assert redact("postgresql://ann:pw%40x@db.club:5432/games?sslmode=require") == \
        "postgresql://ann:***@db.club:5432/games?sslmode=require"
    assert redact("postgres://ann@db.club/games?password=pw&sslmode=require") == \
        "postgres://ann@db.club/games?password=***&sslmode=require"
    assert redact("postgresql://db.club/games") == "postgresql://db.club/games"
    assert redact(Path("/var/lib/scorekeeper/scorekeeper.db")) == \
        "/var/lib/scorekeeper/scorekeeper.db"
    url = "postgresql://ann:pw%40x@db.club/games?password=two"
    assert scrub("auth failed for pw@x, pw%40x and two", url) == "auth failed for ***, *** and ***"


def test_sql_is_adapted_for_psycopg() -> None:
    sql = "SELECT '?%', \"a?\", ? FROM t WHERE a LIKE '%x' -- why?\n AND b = ?"
    assert to_pyformat(sql) == \
        "SELECT '?%%', \"a?\", %s FROM t WHERE a LIKE '%%x' -- why?\n AND b = %s"


def test_sqlite_scripts_split_into_statements() -> None:
    script = """CREATE TABLE t (a TEXT DEFAULT 'x;y');
    CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE t SET a = 'z'; END;
    -- a comment; with a semicolon
    CREATE INDEX i ON t(a)"""
    parts = split_script(script)
    assert len(parts) == 3 and parts[1].endswith("END;") and parts[2].endswith("ON t(a);")


def test_settings_take_a_url_and_show_it_without_its_password(tmp_path: Path) -> None:
    url = f"postgresql://club:{SECRET}@db.club/games"
    s = Settings(data_dir=tmp_path, db=url)
    assert s.db_target == url and SECRET not in s.db_shown and "db.club" in s.db_shown
    assert s.backups_path == tmp_path / "backups"
    with pytest.raises(ValueError, match="PostgreSQL server"):
        _ = s.db_path
    file = Settings(data_dir=tmp_path, db=tmp_path / "x.db")  # a Path still works
    assert file.db_target == file.db_path == tmp_path / "x.db"
    assert file.backups_path == tmp_path / "backups"


def test_the_config_file_keeps_a_url_as_written(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    url = f"postgresql://club:{SECRET}@db.club/games"
    config.write_text(f'db = "{url}"\n')
    assert read_config(config)["db"] == url
    config_main([str(config)])
    out = capsys.readouterr().out
    assert SECRET not in out and "postgresql://club:***@db.club/games" in out
    config.write_text('db = "games.db"\n')
    assert read_config(config)["db"] == tmp_path / "games.db"


def test_a_sqlite_start_never_loads_the_driver(tmp_path: Path) -> None:
    """A Pi on SQLite must not pay for psycopg at start-up."""
    code = ("import sys; from pathlib import Path; import scorekeeper.web.app; "
            "from scorekeeper.store import GameStore; "
            f"GameStore(Path({str(tmp_path / 'x.db')!r})).close(); "
            "print([m for m in sys.modules if m.startswith('psycopg')])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]"


# --- a wrong URL: in words, the host named, the password never ------------------------------

BAD_URL = f"postgresql://club:{SECRET}@no-such-host.invalid:5432/games"


def test_a_wrong_url_is_a_clear_error() -> None:
    with pytest.raises(StoreFault) as caught:
        open_database(BAD_URL)
    message = str(caught.value)
    assert "no-such-host.invalid" in message and SECRET not in message
    assert caught.value.fault == "unreachable"
    words = explain(caught.value, "open its database")
    assert "the database server does not answer" in words and SECRET not in words


def test_the_cli_says_a_wrong_url_in_words(tmp_path: Path) -> None:
    env = {**os.environ, "SCOREKEEPER_DATA_DIR": str(tmp_path),
           "SCOREKEEPER_CONFIG": str(tmp_path / "none.toml")}
    (tmp_path / "none.toml").write_text("")
    for args in (["serve", "--db", BAD_URL, "--camera", "none", "--port", "0"],
                 ["db", "check", "--db", BAD_URL], ["db", "backup", "--db", BAD_URL]):
        done = subprocess.run([sys.executable, "-m", "scorekeeper.cli", *args], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=120,
                              check=False)
        said = done.stdout + done.stderr
        assert done.returncode == 2, said
        assert "no-such-host.invalid" in done.stderr and SECRET not in said, said
        assert "Traceback" not in said, said


# --- with a server ---------------------------------------------------------------------------

def test_two_processes_append_to_one_game(pg_url: str) -> None:
    """Two stores (as two servers would) on one game, each with its own cache: no event is
    lost or doubled, each is judged after all before it, and each store shows the other's."""
    one, two = GameStore(pg_url), GameStore(pg_url)
    try:
        gid = one.create("rummy", ["Ann", "Bob"], {"target": 10_000})["id"]
        assert two.get(gid)["seq"] == 0  # cached in two
        one.append(gid, {"type": "hand", "players": HAND})
        view, _ = two.append(gid, {"type": "hand", "players": HAND})
        assert view["seq"] == 2 and one.get(gid)["seq"] == 2
        two.append(gid, {"type": "undo"})
        assert one.get(gid)["seq"] == 3 and len(one.get(gid)["hands"]) == 1

        errors: list[BaseException] = []

        def post(store: GameStore) -> None:
            try:
                for _ in range(6):
                    store.append(gid, {"type": "hand", "players": HAND})
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

        threads = [threading.Thread(target=post, args=(s,)) for s in (one, two, one, two)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert one.get(gid) == two.get(gid) and one.get(gid)["seq"] == 27
        assert len(one.get(gid)["hands"]) == 25
        with one.database.read() as tx:
            assert tx.fetchall("SELECT seq FROM events WHERE game_id = ? ORDER BY seq",
                               (gid,)) == [(n,) for n in range(1, 28)]
    finally:
        one.close()
        two.close()


def test_game_over_in_one_process_is_seen_by_the_other(pg_url: str) -> None:
    one, two = GameStore(pg_url), GameStore(pg_url)
    try:
        gid = one.create("rummy", ["Ann", "Bob"], {"target": 5})["id"]
        two.get(gid)
        one.append(gid, {"type": "hand", "players": WON})
        with pytest.raises(Exception, match="is over"):
            two.append(gid, {"type": "hand", "players": WON})
        assert one.get(gid)["seq"] == two.get(gid)["seq"] == 1
    finally:
        one.close()
        two.close()


def test_health_on_postgresql_never_shows_the_password(
        pg_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    settings = Settings(data_dir=tmp_path, db=with_password(pg_url), camera="none")
    with TestClient(create_app(settings, token="t")) as client:
        r = client.get("/api/health")
        assert r.status_code == 200, r.text
        store = r.json()["store"]
        assert store["writable"] is True and store["problem"] is None
        assert store["database"].startswith("postgresql://postgres:***@")
        assert "pg_dump" in store["backup"]["note"]
        assert SECRET not in r.text
        assert client.get("/api/games").json() == []  # the write probe changed nothing
        admin = {"Authorization": "Bearer t"}
        r = client.post("/api/games", json={"variant": "rummy", "players": ["Ann", "Bob"]},
                        headers=admin)
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        r = client.post(f"/api/games/{gid}/hands", json={"players": HAND}, headers=admin)
        assert r.status_code == 201 and r.json()["n"] == 1, r.text
        assert client.get(f"/api/games/{gid}").json()["seq"] == 1
    assert SECRET not in caplog.text


def test_a_dropped_connection_is_replaced(pg_url: str, pg_server: str) -> None:
    """A server restart (here: every session of the database ended) costs no request."""
    import psycopg

    store = GameStore(pg_url)
    try:
        gid = store.create("chicago", ["Ann", "Bob"])["id"]
        name = pg_url.split("?")[0].rsplit("/", 1)[1]
        with psycopg.connect(pg_server, autocommit=True) as conn:
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                         "WHERE datname = %s AND pid <> pg_backend_pid()", (name,))
        assert store.get(gid)["seq"] == 0 and store.health.ping()
    finally:
        store.close()


def test_backup_and_check_on_a_url(pg_url: str, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    store = GameStore(pg_url)
    gid = store.create("rummy", ["Ann", "Bob"], {"target": 5})["id"]
    store.append(gid, {"type": "hand", "players": WON})
    store.close()
    out, err = io.StringIO(), io.StringIO()
    url = with_password(pg_url)
    assert admin.check(url, out, err) == 0, err.getvalue()
    said = out.getvalue()
    assert f"1 games, 1 events, schema {SCHEMA_VERSION}" in said and SECRET not in said

    assert admin.backup(url, None, out, err, folder=tmp_path / "backups") == 0, err.getvalue()
    dumps = list((tmp_path / "backups").glob("*-manual.dump"))
    assert len(dumps) == 1 and SECRET not in out.getvalue()
    listing = subprocess.run(["pg_restore", "--list", str(dumps[0])], capture_output=True,
                             text=True, check=True).stdout
    assert "TABLE DATA public events" in listing

    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    assert admin.backup(url, tmp_path, out, err) == 2
    assert "pg_dump is not installed" in err.getvalue()
    assert admin.restore_from(url, dumps[0], out, err) == 2
    assert "pg_restore" in err.getvalue() and SECRET not in err.getvalue()


def test_the_store_backs_up_with_pg_dump_when_asked(pg_url: str, tmp_path: Path) -> None:
    store = GameStore(pg_url, backups=tmp_path)
    try:
        store.create("chicago", ["Ann", "Bob"])
        target = store.backups.take()
        assert target.suffix == ".dump" and target.parent == tmp_path
        assert store.health.report()["backup"]["last"] == target.name
    finally:
        store.close()
    with pytest.raises(StoreError, match="no backups folder"):
        bare = GameStore(pg_url)
        try:
            bare.backups.take()
        finally:
            bare.close()


def test_cli_db_commands_take_a_url(pg_url: str, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREKEEPER_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("SCOREKEEPER_CONFIG", str(tmp_path / "none.toml"))
    (tmp_path / "none.toml").write_text("")
    GameStore(pg_url).close()
    assert cli.main(["db", "check", "--db", pg_url]) == 0
    assert cli.main(["db", "backup", "--db", pg_url]) == 0
    out = capsys.readouterr().out
    assert "0 games, 0 events" in out and "pg_dump" in out
    assert len(list((tmp_path / "backups").glob("*.dump"))) == 1


def test_two_servers_creating_under_one_key_make_one_game(pg_url: str) -> None:
    """Two stores (two servers) create with one Idempotency-Key at the same moment: one game,
    and the other gets its answer as a replay, never a constraint's error."""
    one, two = GameStore(pg_url), GameStore(pg_url)
    try:
        for round_ in range(8):
            key = RequestKey(f"new-game-{round_}", "same request")
            gate = threading.Barrier(2)
            got: list[Written | BaseException] = []

            def create(store: GameStore, key: RequestKey = key,
                       gate: threading.Barrier = gate, got: list[Any] = got) -> None:
                gate.wait()
                try:
                    got.append(store.create_once("rummy", ["Ann", "Bob"], request=key))
                except BaseException as exc:  # noqa: BLE001 - reported below
                    got.append(exc)

            threads = [threading.Thread(target=create, args=(s,)) for s in (one, two)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            written = [w for w in got if isinstance(w, Written)]
            assert len(written) == 2, got
            assert written[0].answer == written[1].answer
            assert sorted(w.replayed for w in written) == [False, True]
        assert len(one.games()) == 8
    finally:
        one.close()
        two.close()


def test_a_database_error_is_refused_without_the_databases_words(
        pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A real unique violation (the key written twice) while saving: a 503 in words, with
    neither the URL (user, host, database), nor the constraint, nor a stack."""
    from scorekeeper.store import games

    def twice(tx: Any, scope: int, request: RequestKey, answer: Any, now: Any) -> None:
        for _ in range(2):
            tx.execute("INSERT INTO request_keys (game_id, key, fingerprint, answer, "
                       "created_at) VALUES (?, ?, '', '{}', '')", (scope, request.key))

    settings = Settings(data_dir=tmp_path, db=with_password(pg_url), camera="none")
    with TestClient(create_app(settings, token="t")) as client:
        admin = {"Authorization": "Bearer t", "Idempotency-Key": "k1"}
        gid = client.post("/api/games", json={"variant": "rummy", "players": ["Ann", "Bob"]},
                          headers={"Authorization": "Bearer t"}).json()["id"]
        monkeypatch.setattr(games, "remember", twice)
        r = client.post(f"/api/games/{gid}/hands", json={"players": HAND}, headers=admin)
    assert r.status_code == 503 and r.json()["code"] == "storage_failed", r.text
    database = pg_url.split("?")[0].rsplit("/", 1)[1]
    for leak in ("postgresql://", "postgres@", database, "pkey", "request_keys",
                 "duplicate key", "Traceback", SECRET):
        assert leak not in r.text, leak
    assert r.json()["detail"] == "the scorekeeper cannot save: the database refused it " \
                                 "(the server’s log says why)"
    assert "request_keys_pkey" in caplog.text and SECRET not in caplog.text
