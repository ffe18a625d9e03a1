"""The club's big screen (/club) on a 1920×1080 TV, in Debian's Chromium against a real club
server: every live table's scoreboard and the standings, updated live as hands are saved,
readable (axe: no serious problem) and without a JavaScript error.
Run: `.venv/bin/python -m pytest tests/test_browser_club.py -m browser`.
"""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)

from __future__ import annotations

import json
import random
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

if not Path("/usr/bin/chromium").exists():
    pytest.skip("Debian's Chromium (/usr/bin/chromium) is not installed", allow_module_level=True)

from scorekeeper.club.league import League, new_season
from scorekeeper.club.tables import Tables
from scorekeeper.store import GameStore
from tests.test_browser import (  # noqa: F401  (browser is a fixture)
    ARTIFACTS,
    Phone,
    Server,
    axe_problems,
    browser,
    expect,
)

pytestmark = pytest.mark.browser

TV = {"width": 1920, "height": 1080}
MEMBERS = ["Ana", "Bruno", "Carla", "Duarte", "Eva", "Filipe", "Gil", "Helena", "Inês", "João",
           "Lara", "Miguel", "Nuno", "Olga", "Paulo", "Rita"]
LIVE_S = 3.0  # the feed waits 0.5 s for a burst to settle; the page draws at once


def hand(rng: random.Random, variant: str, players: list[dict[str, Any]]) -> dict[str, Any]:
    standing = [p for p in players if not p["eliminated"]]
    ender = rng.choice(standing)
    rows = []
    for p in standing:
        if p is not ender:
            rows.append({"name": p["name"], "held": rng.randint(2, 30)})
        elif variant == "chicago":
            rows.append({"name": p["name"], "held": 0, "knocked": True})
        else:
            rows.append({"name": p["name"], "held": 0, "went_out": True})
    return {"type": "hand", "players": rows}


TOKENS: dict[str, str] = {}


def evening(path: Path) -> dict[str, int]:
    """A club night under way: 12 tables, finished games for the standings, a guest."""
    rng = random.Random(7)
    store = GameStore(path)
    db = store.database
    league = League(db)
    league.add_players(MEMBERS)
    today = datetime.now(UTC).date().isoformat()
    league.add_season(new_season("Autumn league", "2020-01-01", "2099-12-31", "wins"))
    tables = Tables(db)
    live: dict[str, int] = {}
    variants = ["chicago", "rummy", "rummy500", "chicago"]
    for n in range(1, 13):
        name = f"table-{n:02d}"
        TOKENS[name] = tables.add(name)
        variant = variants[n % len(variants)]
        for round_ in range(2):  # a finished game, then the one being played
            seats = rng.sample(MEMBERS, 4 if variant == "chicago" else 3)
            if n == 5:
                seats[-1] = "Visitor"  # a guest: shown, not ranked
            settings = {"hands": 2} if variant == "rummy" else None
            gid = store.create(variant, seats, settings)["id"]
            for _ in range(12 if round_ == 0 else rng.randint(1, 3)):
                view = store.get(gid)
                if view["game_over"]:
                    break
                store.append(gid, hand(rng, variant, view["players"]))
            with db.transaction() as tx:
                row = tx.fetchone("SELECT id FROM club_tables WHERE name = ?", (name,))
                assert row is not None
                tx.execute("INSERT INTO club_games (table_id, table_game_id, game_id, created_at)"
                           " VALUES (?, ?, ?, ?)", (row[0], round_ + 1, gid, f"{today}T19:00:00"))
            live[name] = gid
    with db.transaction() as tx:  # every table synced just now: live on the screen
        tx.execute("UPDATE club_tables SET last_seen = ?, pending_events = 0",
                   (datetime.now(UTC).isoformat(timespec="seconds"),))
    store.close()
    return live


@pytest.fixture
def club(tmp_path: Path,
         monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Server, dict[str, int]]]:
    monkeypatch.setenv("SCOREKEEPER_CLUB_SERVER", "true")
    srv = Server(tmp_path / "data")
    srv.data_dir.mkdir()
    live = evening(srv.data_dir / "scorekeeper.db")
    srv.start()
    yield srv, live
    srv.stop()


@pytest.fixture
def tv(browser: Any, club: tuple[Server, dict[str, int]]) -> Iterator[Phone]:
    ctx = browser.new_context(viewport=TV, device_scale_factor=1, locale="en-GB")
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{club[0].url}/club")
    page.wait_for_selector("body.ready")
    screen = Phone(page, errors)
    yield screen
    assert errors == [], f"JavaScript errors: {errors}"
    ctx.close()


def test_the_big_screen_shows_every_table_and_the_standings_live(
        club: tuple[Server, dict[str, int]], tv: Phone) -> None:
    server, live = club
    expect(tv.tid("club-status")).to_have_text("Live")
    expect(tv.tid("club-season")).to_have_text("Autumn league: 2020-01-01 to 2099-12-31")
    cards = tv.page.locator("[data-testid^=club-card-]")
    expect(cards).to_have_count(12)
    visible = [c for c in cards.all() if c.is_visible()]
    for c in visible:  # a shown card lies wholly on the screen
        box = c.bounding_box()
        assert box is not None and box["y"] + box["height"] <= TV["height"]
    if len(visible) < 12:
        expect(tv.tid("club-page")).to_contain_text("page 1 of")
    expect(tv.tid("club-standings").locator("caption")).not_to_be_empty()
    first = tv.page.locator("[data-testid$='-0'][data-testid^=club-row-]")
    expect(first.locator("td.rank")).to_have_text("1")
    assert axe_problems(tv) == []
    ARTIFACTS.mkdir(exist_ok=True)
    tv.page.screenshot(path=str(ARTIFACTS / "club-1920x1080.png"))

    # a hand saved at table 1 reaches the TV
    gid = live["table-01"]
    game = server.api("GET", f"/api/games/{gid}")
    card = tv.tid("club-card-table-01")
    before = card.locator(".club-player-total").all_inner_texts()
    body = hand(random.Random(1), game["variant"], game["players"])
    # as its table sends it: a forwarded game is scored at the table, never at the club
    sync = {"games": [], "events": [{"table_game_id": 2, "seq": game["seq"] + 1,
                                     "body": {"type": "hand", "players": body["players"]}}]}
    req = urllib.request.Request(f"{server.url}/api/club/sync", json.dumps(sync).encode(),
                                 {"Authorization": f"Bearer {TOKENS['table-01']}",
                                  "Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=5) as answer:
        assert answer.status == 200
    expect(card.locator(".club-player-total")).not_to_have_text(before,
                                                                timeout=LIVE_S * 1000)


def test_an_unknown_season_is_said_in_words(club: tuple[Server, dict[str, int]],
                                             browser: Any) -> None:
    ctx = browser.new_context(viewport=TV)
    page = ctx.new_page()
    page.goto(f"{club[0].url}/club?season=Spring&theme=light")
    expect(page.get_by_test_id("club-status")).to_contain_text("no season named 'Spring'")
    page.screenshot(path=str(ARTIFACTS / "club-unknown-season.png"))
    ctx.close()
