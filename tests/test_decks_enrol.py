"""`deck layout` and `deck enrol`: rendered photos of the prescribed layout on the mat, and
the slips a user makes laying it out, each caught and named."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorekeeper.cli import main

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(not (ROOT / "models" / "model.json").exists(),
                                reason="no card model")


@pytest.fixture(scope="module")
def deck():  # a synth Deck: the built-in drawn one, which needs no card art
    from scorekeeper_lab.training.synth.fallback import fallback_deck
    from scorekeeper_lab.training.synth.tables import with_joker

    return with_joker(fallback_deck())


@pytest.fixture(scope="module")
def reader():
    from scorekeeper.vision.reader import CardReader

    return CardReader()


def _read(deck, reader, number: int = 1, **slips: object):
    from scorekeeper_lab.training.adapt import render_enrolment

    from scorekeeper.decks.enrol import read_photo

    frame = render_enrolment(deck, number, seed=7, **slips)  # type: ignore[arg-type]
    return read_photo(frame, number, reader, random.Random(0))


def test_layout_is_printed_and_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    assert main(["deck", "layout"]) == 0
    text = capsys.readouterr().out
    assert "row 1: AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC JK" in text
    assert "row 2: AS 2S" in text
    assert main(["deck", "layout", "--out", str(tmp_path / "sheet.png")]) == 0
    for n in (1, 2):
        assert cv2.imread(str(tmp_path / f"sheet-{n}.png")) is not None
    assert main(["deck", "layout", "--out", str(tmp_path / "sheet.pdf")]) == 0
    assert (tmp_path / "sheet.pdf").read_bytes().startswith(b"%PDF")


def test_a_good_photo_gives_every_card_by_its_place(deck, reader) -> None:
    got = _read(deck, reader, 2)
    assert got.problems == []
    cards = sorted(e.card for e in got.examples if e.card != "none")
    assert cards == sorted(f"{r}{s}" for s in "HS" for r in
                           ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"))
    assert sum(e.card == "none" for e in got.examples) > 10


@pytest.mark.parametrize(("slips", "needle"), [
    ({"leave_out": ("QC",)}, "photo 1: QC is missing (row 1, place 12)"),
    ({"swap": ("5C", "9C")}, "photo 1: 5C and 9C are swapped (row 1, places 5 and 9)"),
    ({"blur": 5.0}, "photo 1 is blurred"),
])
def test_slips_are_caught_and_named(deck, reader, slips: dict, needle: str) -> None:
    got = _read(deck, reader, 1, **slips)
    assert any(p.startswith(needle) for p in got.problems), got.problems
    assert got.examples == []


def test_a_photo_without_the_mat_is_refused(tmp_path: Path, reader) -> None:
    from scorekeeper.decks.enrol import read_photo

    got = read_photo(np.full((600, 800, 3), 90, np.uint8), 1, reader, random.Random(0))
    assert got.problems and got.problems[0].startswith("photo 1: no scan mat found")


def test_enrol_stores_nothing_when_a_photo_is_wrong(tmp_path: Path, deck,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from scorekeeper_lab.training.adapt import render_enrolment

    monkeypatch.setenv("SCOREKEEPER_DATA_DIR", str(tmp_path / "data"))
    good, bad = tmp_path / "good.jpg", tmp_path / "bad.jpg"
    cv2.imwrite(str(good), render_enrolment(deck, 1, seed=3))
    cv2.imwrite(str(bad), render_enrolment(deck, 2, seed=3, leave_out=("4H",)))
    assert main(["deck", "enrol", "home", str(good), str(bad)]) == 2
    assert "photo 2: 4H is missing" in capsys.readouterr().err
    assert not (tmp_path / "data" / "decks" / "home").exists()
    assert main(["deck", "enrol", "home", *[str(good)] * 6]) == 2
    assert "1 to 5 photos" in capsys.readouterr().err


def test_enrolled_crops_become_a_deck_the_renderer_draws(deck) -> None:
    """Each stored index crop becomes a face with that index at its top-left corner and
    turned at the bottom-right, on the paper seen around the indices; scenes of it are
    labelled with the enrolled cards."""
    from scorekeeper_lab.training.synth.compose import render_scene
    from scorekeeper_lab.training.synth.enrolled import H, W, deck_from_examples

    from scorekeeper.decks.examples import cut

    crops, rows = [], []
    for face in deck.faces[:6]:
        photo = np.full((400, 300, 3), (90, 140, 60), np.uint8)  # the card on green felt
        img = cv2.resize(face.image, (240, 336))
        alpha = img[:, :, 3:4] / 255
        photo[30:366, 30:270] = (img[:, :, :3] * alpha + photo[30:366, 30:270] * (1 - alpha))
        x1, y1, x2, y2 = face.index[0]
        box = (30 + 2 * x1, 30 + 2 * y1, 30 + 2 * x2, 30 + 2 * y2)
        crops.append(cut(photo, box))
        rows.append({"card": face.card, "box": list(box), "group": face.card})
    crops.append(crops[0])
    rows.append({"card": "none", "box": [0, 0, 10, 10], "group": "n"})
    built = deck_from_examples(crops, rows, "home", seed=1)
    assert [f.card for f in built.faces] == [r["card"] for r in rows[:6]]
    for f in built.faces:
        tl, br = f.index
        assert f.image.shape == (H, W, 4)
        assert 0 <= tl[0] < tl[2] < W / 2 and 0 <= tl[1] < tl[3] < H / 2
        assert br == (W - tl[2], H - tl[3], W - tl[0], H - tl[1])
        ink = f.image[tl[1]:tl[3], tl[0]:tl[2], :3].min()
        turned = f.image[br[1]:br[3], br[0]:br[2], :3]
        assert ink < 120 and turned.min() < 120  # the index is printed at both corners
        paper = f.image[H // 2 - 5:H // 2 + 5, 5:15, :3].reshape(-1, 3).mean(0)
        assert paper.min() > 200  # the cards' paper (white), not the felt around them
    assert {f.card for f in deck_from_examples(crops, rows, cards={"AC"}).faces} == {"AC"}
    _, labels = render_scene(np.random.default_rng(0), [built], (320, 320))
    cards = {lab["card"] for lab in labels if lab["kind"] == "index"}
    assert cards and cards <= {r["card"] for r in rows[:6]}
    with pytest.raises(ValueError, match="no enrolled index crops"):
        deck_from_examples(crops[-1:], rows[-1:])
