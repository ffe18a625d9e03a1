"""The score sheet shared from the phone, the knock checks, lay-offs and small page fixes.

Drives Debian's Chromium against the real server, like test_browser.py. New screens are
checked at 320 px with text at 200 % (axe: nothing serious; no control small, clipped or off
screen) and screenshotted under test-artifacts/.
Run: `.venv/bin/python -m pytest tests/test_browser_share.py` (on CI's fonts: with
FONTCONFIG_FILE pointing at a fonts.conf that shows only DejaVu and Liberation).
"""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)

from __future__ import annotations

import json
import math
import re
import struct
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

# (importing test_browser skips this module where Chromium is not installed)
from tests.test_browser import (  # noqa: F401  (browser, phones, server: fixtures)
    ANN_KNOCK,
    ARTIFACTS,
    AXE,
    BOB_HAND,
    CHICAGO_H1,
    ROOT,
    TOKEN,
    Phone,
    Server,
    browser,
    enter_player,
    expect,
    open_phone,
    phones,
    pick,
    reload,
    server,
    shot,
)
from tests.test_browser_table import SMALL_OR_CLIPPED, settle

pytestmark = pytest.mark.browser

SMALL = {"width": 320, "height": 640}
BIG_TEXT = "html { font-size: 200% !important; }"

# The phone's share sheet, as a page script sees it on a phone that shares files.
FAKE_SHARE = """
  window.__shared = [];
  navigator.canShare = (data) => !!(data && data.files && data.files.length);
  navigator.share = async (data) => { window.__shared.push(...data.files); };
"""

# What the shared picture holds: its size, and how many of its pixels are not background.
PICTURE = """async () => {
  const f = window.__shared[window.__shared.length - 1];
  const bmp = await createImageBitmap(f);
  const c = new OffscreenCanvas(bmp.width, bmp.height);
  const ctx = c.getContext('2d');
  ctx.drawImage(bmp, 0, 0);
  const px = ctx.getImageData(0, 0, bmp.width, bmp.height).data;
  let inked = 0;
  for (let i = 0; i < px.length; i += 4) {
    if (px[i] < 200 || px[i + 1] < 200 || px[i + 2] < 200) inked++;
  }
  return { name: f.name, type: f.type, size: f.size, width: bmp.width, height: bmp.height, inked };
}"""


# SMALL_OR_CLIPPED on the new screen only (`root`, a CSS selector): the rest of the page
# (the action bar behind an open dialog) is the page layout's own test's to check.
SMALL_OR_CLIPPED_IN = SMALL_OR_CLIPPED.replace(
    "() => [...document.querySelectorAll(",
    "(root) => [...document.querySelector(root).querySelectorAll(")
assert SMALL_OR_CLIPPED_IN != SMALL_OR_CLIPPED


def check_screen(phone: Phone, screen: str, problems: list[str], root: str) -> None:
    """axe's serious and critical findings in `root` (the dialog or sheet under test), and
    any small, clipped or off-screen control in it."""
    if not phone.page.evaluate("typeof window.axe === 'object'"):
        phone.page.evaluate(AXE.read_text(encoding="utf-8"))  # from the npm lock, as ever
    found = phone.page.evaluate(
        """async (root) => {
          const r = await axe.run(root, { resultTypes: ['violations'] });
          return r.violations.filter((v) => ['serious', 'critical'].includes(v.impact))
            .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3)
              .map((n) => n.target.join(' ')).join(', ')}`);
        }""", root)
    problems += [f"{screen}: {p}" for p in found]
    found = phone.page.evaluate(SMALL_OR_CLIPPED_IN, root)
    problems += [f"{screen}: small or clipped {x}" for x in found]


def shared_bytes(phone: Phone, i: int) -> bytes:
    """The `i`th file the page handed to the (fake) share sheet."""
    return bytes(phone.page.evaluate(
        "async (i) => Array.from(new Uint8Array(await window.__shared[i].arrayBuffer()))", i))


def shared_text(phone: Phone, i: int) -> str:
    """The `i`th shared file's bytes as UTF-8, its byte-order mark kept (Blob.text() drops it)."""
    return shared_bytes(phone, i).decode("utf-8")


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height from its header (the file must be a PNG)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def pdf_picture(data: bytes) -> Any:
    """The picture in a one-page PDF, decoded, once its structure is checked: every offset in
    the cross-reference table names its object, `startxref` names the table, and the image's
    stream is as long as it says."""
    assert data.startswith(b"%PDF-1.") and data.rstrip().endswith(b"%%EOF")
    found = re.search(rb"startxref\n(\d+)\n%%EOF", data)
    assert found
    xref = int(found.group(1))
    assert data[xref:xref + 5] == b"xref\n"
    count = int(data[xref:].split(b"\n")[1].split()[1])
    rows = data[xref:].split(b"\n")[3:2 + count]
    for n, row in enumerate(rows, start=1):
        at = int(row[:10])
        assert data[at:].startswith(f"{n} 0 obj".encode()), (n, at)
    head = re.search(rb"/Filter /DCTDecode /Length (\d+) >>\nstream\n", data)
    assert head
    jpeg = data[head.end():head.end() + int(head.group(1))]
    assert data[head.end() + len(jpeg):].startswith(b"\nendstream")
    picture = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert picture is not None
    return picture


def sheet_pixels(players: int, hands: int) -> tuple[int, int]:
    """The picture's size, worked out here from its parts (sheet.js's SHEET, drawn at 2×)."""
    chart = round(672 * 210 / 360)
    height = 24 + 84 + 40 + hands * 30 + 36 + 24 + chart + 8 + math.ceil(players / 2) * 26 + 24
    return 720 * 2, height * 2


def three_hand_game(server: Server) -> int:
    gid = server.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})["id"]
    for _ in range(2):
        server.api("POST", f"/api/games/{gid}/hands", CHICAGO_H1)  # Bob reaches 120: out
    return int(gid)


def test_the_score_sheet_is_shared_as_csv_and_a_picture(server: Server, browser: Any,
                                                         tmp_path: Path) -> None:
    gid = three_hand_game(server)
    viewer = open_phone(browser, f"{server.url}/", accept_downloads=True)
    try:
        expect(viewer.tid("winner")).to_have_text("♛ Ann wins!")
        viewer.tid("gameover-share").click()  # anyone who sees the game may share it
        expect(viewer.tid("share-dialog")).to_be_visible()
        expect(viewer.tid("sheet-image")).to_be_focused()
        expect(viewer.tid("sheet-share")).to_contain_text("Final score sheet")

        # No share sheet for files on this browser: the files are downloaded.
        with viewer.page.expect_download() as got:
            viewer.tid("sheet-csv").click()
        csv = got.value
        assert csv.suggested_filename == f"scorekeeper-chicago-{gid}.csv"
        csv.save_as(tmp_path / "sheet.csv")
        assert (tmp_path / "sheet.csv").read_bytes().decode("utf-8") == (
            "\ufeffHand,Ann,Bob\r\n1,5,60\r\n2,5,60\r\nTotal,10,120\r\n")
        expect(viewer.tid("sheet-status")).to_have_text(f"Saved: scorekeeper-chicago-{gid}.csv")

        with viewer.page.expect_download() as got:
            viewer.tid("sheet-image").click()
        png = got.value
        assert png.suggested_filename == f"scorekeeper-chicago-{gid}.png"
        png.save_as(ARTIFACTS / "score-sheet.png")
        data = (ARTIFACTS / "score-sheet.png").read_bytes()
        assert png_size(data) == sheet_pixels(2, 2)
        assert len(data) > 10_000  # a table, a chart and a legend, not a blank page

        with viewer.page.expect_download() as got:
            viewer.tid("sheet-pdf").click()
        pdf = got.value
        assert pdf.suggested_filename == f"scorekeeper-chicago-{gid}.pdf"
        pdf.save_as(ARTIFACTS / "score-sheet.pdf")
        picture = pdf_picture((ARTIFACTS / "score-sheet.pdf").read_bytes())
        assert (picture.shape[1], picture.shape[0]) == sheet_pixels(2, 2)
        assert (picture < 200).any(axis=2).sum() > 20_000  # the sheet drawn, not a blank page
        assert viewer.errors == [], viewer.errors
    finally:
        viewer.page.context.close()


def test_a_phone_that_shares_files_gets_its_share_sheet(server: Server, browser: Any) -> None:
    """Web Share with files where the phone has it; the picture is drawn, in the page's fonts."""
    gid = three_hand_game(server)
    phone = open_phone(browser, f"{server.url}/", **SMALL)
    try:
        phone.page.add_init_script(FAKE_SHARE)
        reload(phone)
        phone.page.add_style_tag(content=BIG_TEXT)
        phone.tid("gameover-share").scroll_into_view_if_needed()
        problems: list[str] = []
        check_screen(phone, "game over, 320 px, 200 % text", problems, "#gameover")
        shot(phone, "game-over-share-320-200.png")
        phone.tid("share-btn").click()
        expect(phone.tid("sheet-share")).to_be_visible()
        settle(phone)
        check_screen(phone, "share, 320 px, 200 % text", problems, "#share")
        assert problems == [], "\n".join(problems)
        phone.tid("sheet-share").scroll_into_view_if_needed()
        shot(phone, "share-sheet-320-200.png")

        phone.tid("sheet-image").click()
        # drawn in about 1.4 s here; a loaded machine (or a first font lookup) takes longer
        expect(phone.tid("sheet-status")).to_have_text(f"Shared: scorekeeper-chicago-{gid}.png",
                                                         timeout=20_000)
        pic = phone.page.evaluate(PICTURE)
        assert (pic["name"], pic["type"]) == (f"scorekeeper-chicago-{gid}.png", "image/png")
        assert (pic["width"], pic["height"]) == sheet_pixels(2, 2)
        assert pic["size"] > 10_000
        assert pic["inked"] > 20_000, pic  # text, grid and lines were drawn
        # the picture's font is the page's own stack (no web font fetched)
        fonts = phone.page.evaluate("getComputedStyle(document.body).fontFamily")
        assert "system-ui" in fonts
        phone.tid("sheet-csv").click()
        expect(phone.tid("sheet-status")).to_have_text(f"Shared: scorekeeper-chicago-{gid}.csv")
        text = shared_text(phone, 1)
        assert text.startswith("\ufeffHand,Ann,Bob\r\n") and text.endswith("Total,10,120\r\n")
        assert phone.errors == [], phone.errors
    finally:
        phone.page.context.close()


def test_eight_long_names_and_many_hands_make_a_taller_picture(server: Server,
                                                                browser: Any) -> None:
    names = [f"{chr(65 + i)}{'abcdefghij' * 4}"[:40] for i in range(8)]
    gid = server.api("POST", "/api/games", {"variant": "rummy500", "players": names})["id"]
    for n in range(12):
        server.api("POST", f"/api/games/{gid}/hands", {"players": [
            {"name": name, "melded": (i * 7 + n * 5) % 40, "held": (i + n) % 9}
            for i, name in enumerate(names)]})
    phone = open_phone(browser, f"{server.url}/?game={gid}")
    try:
        phone.page.add_init_script(FAKE_SHARE)
        reload(phone)
        phone.tid("share-btn").click()
        expect(phone.tid("sheet-share")).to_contain_text("Score sheet")
        phone.tid("sheet-image").click()
        expect(phone.tid("sheet-status")).to_contain_text("Shared:")
        data = shared_bytes(phone, 0)
        assert png_size(data) == sheet_pixels(8, 12)
        (ARTIFACTS / "score-sheet-8-players.png").write_bytes(data)
        phone.tid("sheet-csv").click()
        expect(phone.tid("sheet-status")).to_contain_text(".csv")
        lines = shared_bytes(phone, 1).decode("utf-8").split("\r\n")
        game = server.api("GET", f"/api/games/{gid}")
        assert lines[0] == "\ufeffHand," + ",".join(names)
        assert lines[1:13] == [
            ",".join([str(h["n"]), *(str(r["points"]) for r in h["result"]["players"])])
            for h in game["hands"]]
        assert lines[13] == "Total," + ",".join(str(p["total"]) for p in game["players"])
        assert lines[14:] == [""]
        assert phone.errors == [], phone.errors
    finally:
        phone.page.context.close()


def test_the_sheet_speaks_the_page_language(server: Server, browser: Any) -> None:
    three_hand_game(server)
    phone = open_phone(browser, f"{server.url}/", locale="es-ES")
    try:
        phone.page.add_init_script(FAKE_SHARE)
        reload(phone)
        phone.tid("gameover-share").click()
        expect(phone.tid("sheet-share")).to_contain_text("Hoja de puntos final")
        phone.tid("sheet-csv").click()
        expect(phone.tid("sheet-status")).to_contain_text("Compartido:")
        text = shared_text(phone, 0)
        assert text == "\ufeffMano,Ann,Bob\r\n1,5,60\r\n2,5,60\r\nTotal,10,120\r\n"
    finally:
        phone.page.context.close()


def test_knock_uses_the_cards_entered(server: Server, phones: tuple[Phone, Phone]) -> None:
    admin, _ = phones
    server.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})
    reload(admin)
    scans: list[str] = []
    admin.page.on("request", lambda r: scans.append(r.url) if r.url.endswith("/scan") else None)
    checks: list[Any] = []
    admin.page.on("request", lambda r: checks.append(json.loads(r.post_data or "null"))
                  if r.url.endswith("/knock-check") else None)
    admin.tid("primary-btn").click()
    enter_player(admin, 0, ANN_KNOCK)
    expect(admin.tid("knock-check-0")).to_contain_text("check the cards entered")
    admin.tid("knock-check-0").click()
    verdict = admin.tid("knock-verdict")
    expect(verdict).to_have_text("✓Legal knock — 5 ≤ 9")
    expect(admin.tid("knock-from-cards")).to_have_text("Checked on the 7 cards entered.")
    expect(admin.tid("knock-melds").locator(".chips")).to_have_count(2)
    assert scans == []  # the camera was not read again
    assert checks == [{"player": "Ann", "cards": ANN_KNOCK}]
    shot(admin, "knock-from-cards.png")
    admin.tid("knock-use").click()
    expect(admin.tid("knock-dialog")).to_be_hidden()
    expect(admin.tid("toggle-knocked")).to_have_attribute("aria-pressed", "true")
    enter_player(admin, 1, BOB_HAND)
    admin.tid("entry-save").click()
    expect(admin.tid("player-total-1")).to_have_text("60")


def test_knock_from_cards_fits_a_small_screen(server: Server, browser: Any) -> None:
    server.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})
    admin = open_phone(browser, f"{server.url}/#token={TOKEN}", **SMALL)
    try:
        admin.page.add_style_tag(content=BIG_TEXT)
        admin.tid("primary-btn").click()
        enter_player(admin, 0, ANN_KNOCK)
        # the first ask never reaches the server (Wi-Fi drops): the cards are asked about again
        admin.page.route("**/knock-check", lambda route: route.abort("connectionreset"))
        admin.tid("knock-check-0").click()
        expect(admin.tid("knock-verdict")).to_have_text("Could not check")
        settle(admin)
        problems: list[str] = []
        check_screen(admin, "knock from cards, failed, 320 px, 200 % text", problems, "#knock")
        admin.page.unroute("**/knock-check")
        admin.tid("knock-again").click()
        expect(admin.tid("knock-verdict")).to_have_attribute("data-legal", "true")
        settle(admin)
        check_screen(admin, "knock from cards, 320 px, 200 % text", problems, "#knock")
        assert problems == [], "\n".join(problems)
        shot(admin, "knock-from-cards-320-200.png")
        assert admin.errors == [], admin.errors
    finally:
        admin.page.context.close()


def partial_answer(cards: list[str]) -> dict[str, Any]:
    return {"player": "Bob", "limit": 9, "deadwood": 0, "legal": None, "melds": [],
            "unmelded": [], "dropped": None, "cards": cards, "impossible": [],
            "count": len(cards), "hand_size": 7, "missing": 7 - len(cards), "maybe": []}


def test_a_new_photo_replaces_the_cards_shown(server: Server, phones: tuple[Phone, Phone]) -> None:
    """May I knock?: each photo's cards replace those shown (tapped, or an earlier photo's)."""
    _, viewer = phones
    server.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})
    reload(viewer)
    answers = [partial_answer(["KC", "QD", "JS", "9H", "8H", "7C"]),
               partial_answer(["2C", "3C", "4C", "5D"])]

    def answer(route: Any) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(answers.pop(0)))

    viewer.page.route("**/api/games/*/knock-check", answer)
    viewer.tid("mayknock-btn").click()
    viewer.tid("mayknock-player").select_option("Bob")
    viewer.tid("mayknock-tap").click()
    for card in ["AH", "2H", "3H"]:
        viewer.tid(f"mk-suit-{card[-1]}").click()
        viewer.tid(f"mk-rank-{card[:-1]}").click()
    photo = ROOT / "scorekeeper" / "camera" / "samples" / "sample-1-mat-a4.jpg"
    viewer.tid("mayknock-file").set_input_files(str(photo))
    expect(viewer.tid("mayknock-read").locator(".chip")).to_have_count(6)
    tapped = viewer.tid("mayknock-cards").locator(".chip")
    expect(tapped).to_have_count(6)  # the photo's six, not the three tapped plus six
    viewer.tid("mayknock-file").set_input_files(str(photo))
    expect(viewer.tid("mayknock-read").locator(".chip")).to_have_count(4)
    expect(tapped).to_have_count(4)
    assert tapped.evaluate_all("els => els.map((e) => e.dataset.testid)") == [
        "mayknock-chip-2C", "mayknock-chip-3C", "mayknock-chip-4C", "mayknock-chip-5D"]
    expect(viewer.page.locator("[data-testid=mayknock-verdict]")).to_have_count(1)


def test_a_lay_off_picks_its_meld_by_a_tap(server: Server, browser: Any) -> None:
    gid = server.api("POST", "/api/games", {"variant": "rummy500", "players": ["Ann", "Bob"]})["id"]
    admin = open_phone(browser, f"{server.url}/#token={TOKEN}", **SMALL)
    try:
        admin.page.add_style_tag(content=BIG_TEXT)
        admin.tid("primary-btn").click()
        admin.tid("entry-tab-0").click()
        admin.tid("add-meld").click()
        pick(admin, ["2H", "3H", "4H"])
        admin.tid("entry-tab-1").click()
        admin.tid("add-meld").click()
        pick(admin, ["AH"])
        admin.tid("layoff-0").click()
        target = admin.tid("layoff-target-0-0")  # Ann's meld 1, as entered
        expect(target.locator(".chip")).to_have_count(3)
        expect(target).to_contain_text("Ann’s meld 1")
        target.scroll_into_view_if_needed()
        settle(admin)
        problems: list[str] = []
        check_screen(admin, "lay-off choice, 320 px, 200 % text", problems,
                     "[data-testid=layoff-pick-0]")
        shot(admin, "layoff-pick-320-200.png")
        target.click()
        expect(admin.tid("zone-meld-on0").locator(".chip")).to_have_count(3)
        expect(admin.tid("layoff-pick-0")).to_have_count(0)
        expect(admin.tid("preview-points-1")).to_have_text("+1")  # the ace counts low
        admin.tid("entry-save").click()
        expect(admin.tid("entry-sheet")).to_be_hidden()
        expect(admin.tid("player-total-1")).to_have_text("1")
        bob = server.api("GET", f"/api/games/{gid}")["hands"][0]["players"][1]
        assert bob["melds"] == [{"cards": ["AH"], "on": ["2H", "3H", "4H"]}]

        admin.tid("hand-row-1").click()  # the hand's details say what was laid off, and on what
        laid = admin.tid("hand-layoff-1-0")
        expect(laid).to_be_visible()
        assert laid.locator(".chip").all_inner_texts() == ["A♥", "2♥", "3♥", "4♥"]
        expect(laid).to_contain_text("on")
        settle(admin)
        check_screen(admin, "hand details with a lay-off, 320 px, 200 % text", problems,
                     "#handinfo")
        assert problems == [], "\n".join(problems)
        shot(admin, "hand-details-layoff-320-200.png")
        assert admin.errors == [], admin.errors
    finally:
        admin.page.context.close()


def test_enter_in_a_name_goes_to_the_next_player(server: Server,
                                                 phones: tuple[Phone, Phone]) -> None:
    admin, _ = phones
    admin.tid("primary-btn").click()
    expect(admin.tid("newgame-sheet")).to_be_visible()
    admin.tid("add-player").click()
    admin.tid("player-input-0").fill("Ann")
    admin.tid("player-input-0").press("Enter")
    expect(admin.tid("player-input-1")).to_be_focused()
    admin.page.keyboard.type("Bob")
    admin.page.keyboard.press("Enter")
    expect(admin.tid("player-input-2")).to_be_focused()
    admin.page.keyboard.type("Cy")
    admin.page.keyboard.press("Enter")  # after the last name: on to Start, not started yet
    expect(admin.tid("create-game")).to_be_focused()
    expect(admin.tid("newgame-sheet")).to_be_visible()
    assert server.api("GET", "/api/games") in ([], {"games": []})
    admin.page.keyboard.press("Enter")  # Start itself starts it
    expect(admin.tid("newgame-sheet")).to_be_hidden()
    expect(admin.tid("player-name-2")).to_have_text("Cy")


def test_the_reconnecting_banner_leaves_the_title_visible(server: Server, browser: Any) -> None:
    server.api("POST", "/api/games", {"variant": "rummy", "players": ["Ann", "Bob"]})
    for width, text in ((390, "100%"), (320, "200%")):
        phone = open_phone(browser, f"{server.url}/", width=width, height=640)
        try:
            phone.page.add_style_tag(content=f"html {{ font-size: {text} !important; }}")
            expect(phone.tid("game-title")).to_have_text("Rummy")
            server.kill()
            expect(phone.tid("reconnecting")).to_be_visible(timeout=5000)
            banner = phone.tid("reconnecting").bounding_box()
            title = phone.tid("game-title").bounding_box()
            assert banner and title and title["y"] >= banner["y"] + banner["height"] - 0.5, (
                banner, title)
            phone.page.mouse.wheel(0, 600)  # scrolled: both stay, the title under the banner
            phone.page.wait_for_timeout(200)
            banner = phone.tid("reconnecting").bounding_box()
            title = phone.tid("game-title").bounding_box()
            assert banner and title and title["y"] >= banner["y"] + banner["height"] - 0.5, (
                banner, title)
            shot(phone, f"reconnecting-title-{width}.png")
            server.start()
            expect(phone.tid("reconnecting")).to_be_hidden(timeout=10_000)
            assert phone.errors == [], phone.errors
        finally:
            phone.page.context.close()


def test_chart_lines_start_at_zero_not_below(server: Server, phones: tuple[Phone, Phone]) -> None:
    _, viewer = phones
    gid = server.api("POST", "/api/games", {"variant": "chicago",
                                            "players": ["Ann", "Bob", "Cy", "Di"]})["id"]
    server.api("POST", f"/api/games/{gid}/hands", {"players": [
        {"name": "Ann", "hand": ANN_KNOCK, "knocked": True}, {"name": "Bob", "hand": BOB_HAND},
        {"name": "Cy", "hand": ["KD", "QH", "JC", "9S", "8D", "7H", "6S"]},
        {"name": "Di", "hand": ["KH", "QC", "JH", "9C", "8C", "7S", "6H"]}]})
    reload(viewer)
    expect(viewer.page.locator("[data-testid^=chart-line-]")).to_have_count(4)
    zero = float(viewer.page.locator(".chart-svg line.grid.zero").get_attribute("y1"))
    for i in range(4):
        d = viewer.tid(f"chart-line-{i}").get_attribute("d")
        start_y = float(d.split()[0].split(",")[1])
        assert start_y <= zero + 0.01, (i, d, zero)  # SVG y grows downwards
    viewer.tid("chart").scroll_into_view_if_needed()
    shot(viewer, "chart-starts-at-zero.png")
