"""The private knock check: any phone, no token, nothing kept, bounded per client."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scorekeeper.settings import Settings
from scorekeeper.web.app import create_app
from scorekeeper.web.routes import knock as knockcheck
from scorekeeper.web.routes.knock import RateLimit
from scorekeeper.web.uploads import MAX_UPLOAD
from tests.apiclient import ADMIN, TOKEN

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

LEGAL = ["AH", "2H", "3H", "4C", "4D", "4S", "5C"]  # deadwood 5
NO_MELD = ["KC", "QD", "JS", "9H", "8H", "7C", "6D"]  # deadwood 60
SAMPLE = Path(__file__).resolve().parent.parent / "scorekeeper/camera/samples/sample-1-mat-a4.jpg"


def chicago(client: TestClient) -> int:
    r = client.post("/api/games", json={"variant": "chicago", "players": ["Ann", "Bob"]},
                    headers=ADMIN)
    return int(r.json()["id"])


def check(client: TestClient, gid: int, body: dict[str, Any]) -> Any:
    return client.post(f"/api/games/{gid}/knock-check", json=body)  # no token


def test_tapped_cards_get_the_verdict_without_a_token(client: TestClient) -> None:
    gid = chicago(client)
    before = client.get(f"/api/games/{gid}").json()
    r = check(client, gid, {"player": "ann", "cards": LEGAL})
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    got = r.json()
    assert (got["player"], got["limit"], got["deadwood"], got["legal"]) == ("Ann", 9, 5, True)
    assert got["melds"] and got["unmelded"] == ["5C"] and got["cards"] == LEGAL
    bad = check(client, gid, {"player": "Bob", "cards": NO_MELD}).json()
    assert (bad["deadwood"], bad["legal"]) == (60, False)
    # nothing was stored: the game is as it was, hands, sequence and all
    assert client.get(f"/api/games/{gid}").json() == before


def test_wrong_asks_are_refused_in_words(client: TestClient) -> None:
    gid = chicago(client)
    assert check(client, gid, {"player": "Cy", "cards": LEGAL}).status_code == 422
    r = check(client, gid, {"player": "Ann", "cards": ["ZZ"]})
    assert r.status_code == 422 and "ZZ" in r.json()["detail"]
    r = check(client, gid, {"player": "Ann", "cards": LEGAL * 3})
    assert r.status_code == 422
    r = check(client, gid, {"player": "Ann", "cards": LEGAL, "token": "x"})
    assert r.status_code == 422
    rummy = client.post("/api/games", json={"variant": "rummy", "players": ["A", "B"]},
                        headers=ADMIN).json()["id"]
    r = check(client, rummy, {"player": "A", "cards": LEGAL})
    assert r.status_code == 422 and "Chicago" in r.json()["detail"]
    assert check(client, 999, {"player": "A", "cards": LEGAL}).status_code == 404


def test_each_phone_gets_a_few_checks_a_minute(client: TestClient) -> None:
    gid = chicago(client)
    for _ in range(knockcheck.PER_MINUTE):
        assert check(client, gid, {"player": "Ann", "cards": LEGAL}).status_code == 200
    r = check(client, gid, {"player": "Ann", "cards": LEGAL})
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
    assert "too many knock checks" in r.json()["detail"]
    # the admin's phone ("Knock?" in the hand form, on the cards entered) is not capped
    for _ in range(knockcheck.PER_MINUTE + 2):
        r = client.post(f"/api/games/{gid}/knock-check", headers=ADMIN,
                        json={"player": "Ann", "cards": LEGAL})
        assert r.status_code == 200, r.text


def test_the_rate_limit_slides_and_forgets_old_clients() -> None:
    limit = RateLimit(per_window=2, window_s=10, clients=2)
    assert limit.wait_s("a", now=0) == 0 and limit.wait_s("a", now=1) == 0
    assert limit.wait_s("a", now=2) == pytest.approx(8)
    assert limit.wait_s("a", now=10.5) == 0  # the first call has left the window
    assert limit.wait_s("b", now=11) == 0 and limit.wait_s("c", now=11) == 0
    assert "a" not in limit._seen  # three clients, room for two: the oldest is forgotten


def test_uploads_are_capped_like_a_scan(client: TestClient) -> None:
    gid = chicago(client)
    url = f"/api/games/{gid}/knock-check"
    huge = {"content-length": str(MAX_UPLOAD + 200 * 1024),
            "content-type": "multipart/form-data; boundary=x"}
    r = client.post(url, content=b"x", headers=huge)
    assert r.status_code == 413
    r = client.post(url, files={"image": ("a.txt", b"not an image")}, data={"player": "Ann"})
    assert r.status_code == 415
    bomb = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\x0dIHDR" + (20000).to_bytes(4, "big") * 2
    r = client.post(url, files={"image": ("b.png", bomb + b"\x08\x02\x00\x00\x00")},
                    data={"player": "Ann"})
    assert r.status_code == 413 and "megapixels" in r.json()["detail"]
    r = client.post(url, files={"image": ("a.jpg", SAMPLE.read_bytes())})
    assert r.status_code == 422 and "player" in r.json()["detail"]


def test_a_photo_is_read_and_dropped(client: TestClient) -> None:
    """The photo path reads the cards with the real reader (503 where there is no model)."""
    gid = chicago(client)
    r = client.post(f"/api/games/{gid}/knock-check",
                    files={"image": ("hand.jpg", SAMPLE.read_bytes(), "image/jpeg")},
                    data={"player": "Bob"})
    if r.status_code == 503:
        assert "card reader unavailable" in r.json()["detail"]
        return
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["player"] == "Bob" and got["limit"] == 9 and got["cards"]
    assert got["count"] == len(got["cards"])
    if got["count"] not in (7, 8):  # never a verdict on a partial (or oversized) hand
        assert got["legal"] is None and got["missing"] == max(0, 7 - got["count"])
    # the marked photo goes to this phone only, inline: no address to fetch it again
    assert got["image"].startswith("data:image/jpeg;base64,")
    assert client.app.state.parts.scans._images == {}  # type: ignore[attr-defined]


@pytest.mark.parametrize("cards", [["9H"], [*LEGAL, "9C", "9D"], []])
def test_only_a_whole_hand_gets_a_verdict(client: TestClient, cards: list[str]) -> None:
    """One card once answered "legal knock, 9 ≤ 9": a partial hand is refused, in words."""
    gid = chicago(client)
    r = check(client, gid, {"player": "Ann", "cards": cards})
    assert r.status_code == 422, r.text
    got = r.json()
    assert got["code"] == "knock_hand_size" and got["count"] == len(cards)
    assert got["cards"] == cards
    assert f"it got {len(cards)} card" in got["detail"]
    assert all(c in got["detail"] for c in cards)


def test_eight_cards_drop_the_best_discard_and_no_deadwood_may_go_rummy(
        client: TestClient) -> None:
    gid = chicago(client)
    eight = check(client, gid, {"player": "Ann", "cards": [*LEGAL, "KS"]}).json()
    assert eight["dropped"] == "KS" and eight["deadwood"] == 5 and eight["count"] == 8
    assert eight["unmelded"] == ["5C"] and eight["rummy"] is False
    melded = ["3H", "4H", "5H", "6H", "9C", "9D", "9S", "KD"]  # 8: drop KD, meld the rest
    got = check(client, gid, {"player": "Ann", "cards": ["AH", "2H", "3H", "4C", "4D", "4S",
                                                         "JS"]}).json()
    assert got["unmelded"] == ["JS"] and got["rummy"] is False
    whole = check(client, gid, {"player": "Ann", "cards": melded}).json()
    assert whole["deadwood"] == 0 and whole["unmelded"] == [] and whole["rummy"] is True
    assert whole["dropped"] == "KD"


class HandReader:
    """Stands in for the card reader: reads `cards` in a row, and sees `unread` more card
    bodies it cannot read."""

    def __init__(self, cards: list[str], unread: int) -> None:
        self.cards, self.unread = cards, unread

    def reader(self) -> HandReader:
        return self

    def read(self, image: object, camera: str | None = None) -> object:
        from scorekeeper.vision.pairing import PhysicalCard
        from scorekeeper.vision.reader import ReadResult
        from scorekeeper.vision.unread import Unread

        read = [PhysicalCard(c, 0.99, (10.0 + 40 * i, 10.0, 45.0 + 40 * i, 90.0), (),
                             sure=True, probability=0.99) for i, c in enumerate(self.cards)]
        lost = [Unread((10.0 + 40 * i, 120.0, 45.0 + 40 * i, 200.0), 0.9)
                for i in range(self.unread)]
        return ReadResult(read, 1.0, sure_line=0.97, unread=lost)


@pytest.mark.parametrize(("cards", "unread", "missing"),
                         [(LEGAL, 1, 0), (LEGAL[:6], 1, 1), ([], 2, 7)])
def test_a_card_seen_but_not_read_gets_no_verdict(
        tmp_path: Path, cards: list[str], unread: int, missing: int) -> None:
    """7 cards read and one seen but not read is no whole hand read (it may be 8): the
    answer gives the unread boxes, typed, and no verdict, as a partial read does."""
    import cv2
    import numpy as np

    from scorekeeper.web.deps import get_vision

    app = create_app(Settings(data_dir=tmp_path, admin_token=None, camera="none"), token=TOKEN)
    photo = cv2.imencode(".png", np.full((240, 320, 3), 90, np.uint8))[1].tobytes()

    def ask(reader: HandReader) -> Any:
        app.dependency_overrides[get_vision] = lambda: reader
        r = c.post(f"/api/games/{gid}/knock-check", data={"player": "Ann"},
                   files={"image": ("hand.png", photo, "image/png")})
        assert r.status_code == 200, r.text
        return r.json()

    with TestClient(app) as c:
        gid = chicago(c)
        got = ask(HandReader(cards, unread))
        assert got["legal"] is None and got["melds"] == [] and got["deadwood"] == 0
        assert got["cards"] == cards and got["count"] == len(cards)
        assert got["missing"] == missing and got["limit"] == 9
        assert [u["confidence"] for u in got["unread"]] == [0.9] * unread
        assert got["unread"][0]["box"] == [10.0, 120.0, 45.0, 200.0]
        assert got["image"].startswith("data:image/jpeg;base64,")  # the "?" marked on it
        schema = c.get("/openapi.json").json()["components"]["schemas"]
        assert schema["KnockAnswer"]["properties"]["unread"]["items"]["$ref"].endswith(
            "UnreadCard")
        if len(cards) == len(LEGAL):  # the same cards with none unread: the verdict
            whole = ask(HandReader(cards, 0))
            assert whole["legal"] is True and whole["deadwood"] == 5 and whole["unread"] == []
