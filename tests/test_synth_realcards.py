"""Cards cut from labelled photos for the renderer (`synth/realcards.py`, `synth fans
--real`): a clean card is warped upright with both indices found; anything unsure is
turned away with its reason, never guessed."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
from scorekeeper_lab.training.synth import realcards
from scorekeeper_lab.training.synth.deckset import Face
from scorekeeper_lab.training.synth.realcards import (
    H,
    Origin,
    W,
    cut_card,
    faces_from_labels,
    faces_with_origins,
    real_deck,
)


def _card(red: bool = False) -> np.ndarray:
    """A face 126 × 176 px: paper, a rank and a pip at the top-left, the same turned."""
    face = np.full((176, 126, 3), 235, np.uint8)
    ink = (40, 40, 200) if red else (25, 25, 25)
    cv2.putText(face, "A", (5, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.8, ink, 2)
    cv2.circle(face, (14, 38), 6, ink, -1)
    cv2.circle(face, (63, 88), 14, ink, -1)
    return np.minimum(face, cv2.rotate(face, cv2.ROTATE_180))


def _photo(angle: float, red: bool = False) -> tuple[np.ndarray, list[float]]:
    """The card turned `angle`° on a brown cloth, and its whole-card box."""
    rng = np.random.default_rng(0)
    photo = np.clip(rng.normal((40, 70, 110), 12, (360, 300, 3)), 0, 255).astype(np.uint8)
    card = _card(red)
    m = cv2.getRotationMatrix2D((63, 88), angle, 1.0)
    m[:, 2] += (150 - 63, 180 - 88)
    mask = cv2.warpAffine(np.full(card.shape[:2], 255, np.uint8), m, (300, 360))
    warped = cv2.warpAffine(card, m, (300, 360))
    photo[mask > 0] = warped[mask > 0]
    ys, xs = np.nonzero(mask)
    return photo, [float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max())]


def test_a_clean_card_is_cut_upright_with_both_indices(tmp_path: Path) -> None:
    photo, box = _photo(8.0)
    cv2.imwrite(str(tmp_path / "p.png"), photo)
    (tmp_path / "labels.jsonl").write_text(
        json.dumps({"image": "p.png", "cards": [{"card": "AS", "box": box}]}) + "\n")
    faces, why = faces_from_labels(tmp_path / "labels.jsonl")
    assert why == {"ok": 1} and len(faces) == 1
    face = faces[0]
    assert face.card == "AS" and face.image.shape == (H, W, 4)
    tl, br = face.index
    assert tl[0] < 0.1 * W and tl[1] < 0.1 * H  # at the corner, not somewhere in the middle
    assert br[2] > 0.9 * W and br[3] > 0.9 * H
    assert real_deck("real", faces).by_card["AS"] == [face]
    # the same cut, with where it came from: its photo and its labelled box's short side
    again, origins, _ = faces_with_origins(tmp_path / "labels.jsonl")
    assert len(again) == 1 and np.array_equal(again[0].image, face.image)
    assert origins == [Origin("p.png", float(min(box[2] - box[0], box[3] - box[1])))]


def test_the_suit_colour_must_match_the_label(tmp_path: Path) -> None:
    photo, box = _photo(-5.0, red=False)
    cv2.imwrite(str(tmp_path / "p.png"), photo)
    (tmp_path / "labels.jsonl").write_text(
        json.dumps({"image": "p.png", "cards": [{"card": "AH", "box": box}]}) + "\n")
    faces, why = faces_from_labels(tmp_path / "labels.jsonl")
    assert faces == [] and why == {"index print unclear": 1}


def test_overlapped_small_and_missing_cards_are_turned_away() -> None:
    photo, box = _photo(0.0)
    over = [box[0] + 20, box[1] + 20, box[2] + 20, box[3] + 20]
    assert cut_card(photo, box, [over]) == (None, "overlapped")
    assert cut_card(photo, [0, 0, 40, 50], []) == (None, "small")
    cloth = photo.copy()
    cloth[:] = (40, 70, 110)
    face, why = cut_card(cloth, box, [])
    assert face is None and why in {"no paper", "paper too small", "not a card's shape"}


def test_photos_of_an_enrolment_set_are_skipped(tmp_path: Path) -> None:
    photo, box = _photo(3.0)
    cv2.imwrite(str(tmp_path / "p.png"), photo)
    line = json.dumps({"image": "p.png", "cards": [{"card": "AS", "box": box}]}) + "\n"
    (tmp_path / "labels.jsonl").write_text(line)
    (tmp_path / "enrol.jsonl").write_text(line.replace('"p.png"', '"../x/p.png"'))
    skip = realcards.skip_names(tmp_path / "enrol.jsonl")
    assert skip == {"p.png"}
    assert faces_from_labels(tmp_path / "labels.jsonl", skip=skip) == ([], {})


def test_fans_of_the_cut_cards_label_every_card_they_show(tmp_path: Path) -> None:
    from scorekeeper_lab.training.synth.fans import render_fans

    faces = []
    for k, (angle, card) in enumerate(((4.0, "AS"), (-6.0, "AH"))):
        photo, box = _photo(angle, red=card == "AH")
        cv2.imwrite(str(tmp_path / f"p{k}.png"), photo)
        with (tmp_path / "labels.jsonl").open("a") as f:
            f.write(json.dumps({"image": f"p{k}.png", "cards": [{"card": card, "box": box}]})
                    + "\n")
    faces, _ = faces_from_labels(tmp_path / "labels.jsonl")
    assert render_fans(tmp_path / "fans", 1, [real_deck("real", faces)], seed=1) == 1
    labels = json.loads((tmp_path / "fans" / "cards" / "000000.json").read_text())
    shown = {o["card"] for o in labels if o["kind"] in ("index", "readable", "covered")}
    assert shown and shown <= {"AS", "AH"}
    assert all(o["deck"] == "real" for o in labels if o.get("card"))


def test_a_scene_deals_one_cut_of_each_card_as_one_deck_holds_it(tmp_path: Path) -> None:
    """Several cuts of one card are several faces of it; a real deck holds one. With
    `one_of_each` each scene's deck keeps one face a card, drawn afresh a scene."""
    from scorekeeper_lab.training.synth.fans import one_of_each, render_fans, scene_decks

    def face(card: str, shade: int) -> Face:
        return Face(card, np.full((H, W, 4), shade, np.uint8), [(0, 0, 20, 40)])

    deck = real_deck("real", [face("AS", 10), face("AS", 20), face("AS", 30), face("KD", 40)])
    seen = set()
    for seed in range(20):
        dealt = one_of_each(np.random.default_rng(seed), deck)
        assert sorted(f.card for f in dealt.faces) == ["AS", "KD"]
        seen.add(int(dealt.by_card["AS"][0].image[0, 0, 0]))
    assert seen == {10, 20, 30}  # every cut still shows, one at a time
    assert scene_decks(np.random.default_rng(0), [deck], False) == [deck]
    assert render_fans(tmp_path / "fans", 1, [deck], seed=1, each=True) == 1
    meta = json.loads((tmp_path / "fans" / "dataset.json").read_text())
    assert meta["one_of_each"] is True
