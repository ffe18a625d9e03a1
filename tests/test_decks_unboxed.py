"""Cards a photo shows without a box (added by hand to a confirmed scan): stored with the
photo, and counted by the install check's whole-photo reading, so a model that finds one is
not charged a false card and one that misses it is charged a miss."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest
from scorekeeper_lab.training.adapt_check import (
    HeldPhoto,
    Reads,
    Split,
    held_photos,
    match_cards,
    read_photos,
    refusal,
)

from scorekeeper.decks.examples import Example, store, unboxed_cards
from scorekeeper.decks.labels import read_labels
from scorekeeper.decks.profile import DeckError, create_or_open, open_deck

AC = ("AC", [(0.0, 0.0, 10.0, 10.0)], True)
QD = ("QD", [(40.0, 0.0, 50.0, 10.0)], True)


def read(card: str, *centres: tuple[float, float], conf: float = 0.9) -> SimpleNamespace:
    return SimpleNamespace(card=card, confidence=conf, indices=[
        SimpleNamespace(det=SimpleNamespace(centre=c)) for c in centres])


# ---- the check's scoring -------------------------------------------------------------------

def test_a_model_that_finds_the_hand_added_card_is_not_charged_a_false_card() -> None:
    truth = [AC, QD]
    found = [read("AC", (5, 5)), read("QD", (45, 5)), read("7H", (80, 60))]
    assert match_cards(found, truth, ("7H",)) == (3, 0)
    # before hand-added cards were kept, the same reading was charged a false card
    assert match_cards(found, truth) == (2, 1)


def test_a_phantom_is_still_false() -> None:
    truth = [AC]
    # another card where no card was labelled: false, and the hand-added one is left unread
    assert match_cards([read("AC", (5, 5)), read("9S", (80, 60))], truth, ("7H",)) == (1, 1)
    # the hand-added card read twice: the second reading is false
    assert match_cards([read("7H", (80, 60)), read("7H", (90, 70), conf=0.5)], truth,
                       ("7H",)) == (1, 1)
    # on a labelled card it names the wrong card, and a second reading of a labelled card
    # is false even when it names the hand-added card
    assert match_cards([read("7H", (5, 5))], truth, ("7H",)) == (0, 1)
    assert match_cards([read("AC", (5, 5)), read("7H", (6, 6), conf=0.5)], truth,
                       ("7H",)) == (1, 1)
    # two hand-added cards of one code (two decks) are both found
    assert match_cards([read("7H", (80, 60)), read("7H", (90, 70))], [], ("7H", "7H")) == \
        (2, 0)


class _Reader:
    def __init__(self, *cards: SimpleNamespace) -> None:
        self.cards = list(cards)

    def read(self, image: object) -> SimpleNamespace:
        return SimpleNamespace(cards=self.cards)


def test_the_hand_added_card_counts_in_the_photos_cards_and_a_miss_is_charged() -> None:
    photo = HeldPhoto(Path("p.jpg"), [AC, ("QD", [(40.0, 0.0, 50.0, 10.0)], False)], ("7H",))
    finds = read_photos(_Reader(read("AC", (5, 5)), read("7H", (80, 60))), [photo], [None])
    misses = read_photos(_Reader(read("AC", (5, 5))), [photo], [None])
    assert finds == Reads(2, 2, 0) and misses == Reads(2, 1, 0)
    # the model that finds it is better, not refused; the one that misses it is refused
    assert refusal(finds, {"generic": misses}) is None and finds.key() > misses.key()
    assert "exactly" in str(refusal(misses, {"candidate": finds}))


# ---- stored with the photo ---------------------------------------------------------------

def _image() -> np.ndarray:
    return np.full((120, 160, 3), 90, np.uint8)


def test_unboxed_cards_are_kept_with_the_photo_and_read_by_the_check(tmp_path: Path) -> None:
    profile, _ = create_or_open(tmp_path, "home")
    examples = [Example("QD", (10, 10, 40, 60), "g"), Example("none", (90, 10, 120, 60), "n")]
    rows = store(profile, _image(), examples, "scan:1:a", ["7H"])
    assert all(r["unboxed"] == ["7H"] for r in rows)
    store(profile, _image(), examples, "enrol:p1.jpg")  # nothing added by hand: no field
    rows = profile.examples()
    assert "unboxed" not in rows[-1]
    first, second = rows[0]["photo"], rows[-1]["photo"]
    assert unboxed_cards(rows, first) == ["7H"] and unboxed_cards(rows, second) == []
    photos = held_photos(profile, rows, Split([], [], [first, second], True))
    assert [p.unboxed for p in photos] == [("7H",), ()]
    assert [[c for c, _, _ in p.cards] for p in photos] == [["QD"], ["QD"]]


def test_old_examples_without_the_field_still_load(tmp_path: Path) -> None:
    profile, _ = create_or_open(tmp_path, "home")
    store(profile, _image(), [Example("QD", (10, 10, 40, 60), "g")], "enrol:p1.jpg")
    row = profile.examples()[0]
    # an example list written before unboxed cards were kept: exactly these keys
    assert set(row) == {"file", "card", "group", "source", "box", "photo"}
    profile = open_deck(tmp_path, "home")
    photos = held_photos(profile, profile.examples(), Split([], [0], [row["photo"]], True))
    assert photos[0].unboxed == () and photos[0].cards == [("QD", [(10, 10, 40, 60)], True)]
    assert read_photos(_Reader(read("QD", (25, 35))), photos, [None]) == Reads(1, 1, 0)


# ---- learning from play ------------------------------------------------------------------

def test_a_confirmed_scan_stores_its_hand_added_card(tmp_path: Path) -> None:
    from scorekeeper.decks.learn import KeptScan, learn

    create_or_open(tmp_path, "home")
    ok, jpeg = cv2.imencode(".jpg", np.full((240, 320, 3), 120, np.uint8))
    assert ok
    scan = KeptScan(1, "home", jpeg.tobytes(), [("QD", (10.0, 10.0, 40.0, 60.0)),
                                                ("10H", (100.0, 10.0, 130.0, 60.0))])
    reader = SimpleNamespace(detect=lambda image: ([], 0))  # no detections: the boxes alone
    answer = learn(tmp_path, reader, scan, "k1", [(0, "QD"), (1, "10C")], 100, ["7H", "JK"])
    assert answer["unboxed"] == 2 and answer["cards"] == 2 and answer["learned"] == 2
    rows = open_deck(tmp_path, "home").examples()
    cards = [r for r in rows if r["card"] != "none"]
    assert [r["card"] for r in cards] == ["QD", "10C"]  # no crop of a hand-added card
    assert all(r["unboxed"] == ["7H", "JK"] for r in rows)
    assert unboxed_cards(rows, rows[0]["photo"]) == ["7H", "JK"]


# ---- `deck add --labels` accepts them, optionally --------------------------------------

def _labels(folder: Path, *lines: dict) -> Path:
    cv2.imwrite(str(folder / "p.png"), np.full((100, 200, 3), 128, np.uint8))
    path = folder / "labels.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


CARD = {"card": "QD", "box": [10, 10, 40, 60]}


def test_a_labels_line_may_name_unboxed_cards(tmp_path: Path) -> None:
    photos = read_labels(_labels(tmp_path, {"image": "p.png", "cards": [CARD]},
                                 {"image": "p.png", "cards": [CARD], "unboxed": ["7h", "10S"]}))
    assert [p.unboxed for p in photos] == [[], ["7H", "10S"]]


@pytest.mark.parametrize(("unboxed", "needle"), [
    (["7H", "ZZ"], "line 2, unboxed card 2: unknown card 'ZZ'"),
    ("7H", 'line 2: "unboxed" must be a list of cards'),
])
def test_a_bad_unboxed_card_is_refused_by_its_line(tmp_path: Path, unboxed: object,
                                                   needle: str) -> None:
    path = _labels(tmp_path, {"image": "p.png", "cards": [CARD]},
                   {"image": "p.png", "cards": [CARD], "unboxed": unboxed})
    with pytest.raises(DeckError, match=needle):
        read_labels(path)
    # a card without a box in "cards" is refused as before: there, a box is required
    path = _labels(tmp_path, {"image": "p.png", "cards": [{"card": "7H"}]})
    with pytest.raises(DeckError, match="line 1, card 1: box must be"):
        read_labels(path)


# ---- `scorekeeper-lab eval --labelled` scores them the same way ------------------------------

def test_eval_labelled_counts_an_unboxed_card_found_in_no_box(tmp_path: Path) -> None:
    from scorekeeper_lab.evaluation.evaluate import eval_labelled, read_labelled

    from tests.test_evaluate_labelled import READINGS, REAL, StandInReader, _card, _photo

    path = tmp_path / "cards.jsonl"
    path.write_text(json.dumps(_photo(unboxed=["2d", "5C"])) + "\n")
    assert read_labelled(path)[0].unboxed == ["2D", "5C"]
    s = eval_labelled(StandInReader(READINGS), path, REAL)  # type: ignore[arg-type]
    # the 2D in no box is the unboxed 2D, read; the 5C nobody read is missed
    assert (s["labelled"], s["predicted"], s["correct"], s["false"]) == (4, 4, 2, 2)
    assert s["photos_to_correct"] == ["IMG_2385.JPG: missed 5C; read QS→QC; false KH"]
    assert s["per_scene"]["missed_because"] == {"unknown": 1}
    # another card in no box is still false
    phantom = [*READINGS[:3], _card("9S", (20, 400, 40, 430))]
    s = eval_labelled(StandInReader(phantom), path, REAL)  # type: ignore[arg-type]
    assert (s["correct"], s["false"]) == (1, 3)
    path.write_text(json.dumps(_photo(unboxed="2D")) + "\n")
    with pytest.raises(ValueError, match="line 1: not a labelled photo"):
        read_labelled(path)


def test_the_curves_scans_list_the_cards_the_reader_missed(tmp_path: Path) -> None:
    from scorekeeper_lab.training.scan_labels import confirmed

    cv2.imwrite(str(tmp_path / "t.jpg"), _image())
    meta = tmp_path / "t.json"
    meta.write_text(json.dumps([
        {"kind": "index", "card_id": 0, "card": "QD", "box": [10, 10, 20, 20]},
        {"kind": "index", "card_id": 0, "card": "QD", "box": [60, 60, 70, 70]},
        {"kind": "index", "card_id": 1, "card": "7H", "box": [100, 10, 110, 20]}]))
    found = read("QD", (15, 15))
    found.box = (10.0, 10.0, 70.0, 70.0)
    sent, missed = confirmed(_Reader(found), tmp_path / "t.jpg", meta)  # type: ignore[arg-type]
    assert sent == [{"card": "QD", "box": [10.0, 10.0, 70.0, 70.0]}] and missed == ["7H"]
