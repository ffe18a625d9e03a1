"""What the generator labels and what it draws beside the cards: the covered-pip rule,
printed matter that is no card (hard negatives), and the procedural font decks."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")

from scorekeeper_lab.training.crops import crops_from_dataset  # noqa: E402
from scorekeeper_lab.training.synth import distractors, fontdeck  # noqa: E402
from scorekeeper_lab.training.synth.compose import (  # noqa: E402
    LEGACY,
    PlacedCard,
    Style,
    _labels,
    compose_scene,
)
from scorekeeper_lab.training.synth.dataset import render_dataset, yolo_lines  # noqa: E402
from scorekeeper_lab.training.synth.fallback import fallback_deck  # noqa: E402

from scorekeeper.vision.classes import NONE  # noqa: E402

SIZE = (120, 120)


def _card_with_index(card: str, covered_rows: slice) -> tuple[np.ndarray, PlacedCard]:
    """Card 0 fills the table; its top-left index is x 10–30, y 10–40; `covered_rows` of the
    table lie under card 1 (the next card of a cascade)."""
    owner = np.zeros(SIZE, np.int32)
    owner[covered_rows, :] = 1
    quad = np.array([[10, 10], [30, 10], [30, 40], [10, 40]], float)
    turned = np.array([[80, 70], [100, 70], [100, 100], [80, 100]], float)
    outline = np.array([[0, 0], [119, 0], [119, 119], [0, 119]], float)
    return owner, PlacedCard(0, card, "d", 120 * 120, [quad, turned], outline)


def _index_labels(owner: np.ndarray, pc: PlacedCard, style: Style) -> list[dict]:
    labels = _labels(owner, [pc], np.eye(3), SIZE, style)
    return [lab for lab in labels if lab["kind"] == "index"]


def test_an_index_whose_pip_is_covered_is_not_labelled() -> None:
    # rows 28–40 hidden: 60 % of the index shows (its rank), none of its pip (lower 40 %)
    owner, pc = _card_with_index("7H", slice(28, 41))
    new = _index_labels(owner, pc, Style())
    old = _index_labels(owner, pc, LEGACY)
    assert [lab["box"][1] for lab in old] == [9.5, 69.5]  # the old rule: 60 % shows
    assert [lab["box"][1] for lab in new] == [69.5]  # the new one: no pip, no index label
    assert new[0]["pip"] == 1.0


def test_an_index_whose_pip_is_covered_is_labelled_covered() -> None:
    # the rank that shows is labelled "covered" (the classifier's `none`), with its box
    owner, pc = _card_with_index("7H", slice(28, 41))
    labels = _labels(owner, [pc], np.eye(3), SIZE, Style())
    covered = [lab for lab in labels if lab["kind"] == "covered"]
    assert len(covered) == 1
    lab = covered[0]
    assert lab["card"] == "7H" and lab["card_id"] == 0 and lab["pip"] == 0.0
    assert lab["box"] == [9.5, 9.5, 30.5, 27.5]  # the rank that shows above the next card
    # the legacy rule labels it an index; a hidden rank is no label at all
    assert not [x for x in _labels(owner, [pc], np.eye(3), SIZE, LEGACY)
                if x["kind"] == "covered"]
    owner, pc = _card_with_index("7H", slice(20, 41))  # 1/3 of the index shows
    assert not [x for x in _labels(owner, [pc], np.eye(3), SIZE, Style())
                if x["kind"] == "covered"]


def test_an_index_that_shows_too_little_is_labelled_partial() -> None:
    # a third of the index shows: no reading is asked for, but what shows is the 7H's, so
    # evaluation neither rewards nor charges a 7H read there
    owner, pc = _card_with_index("7H", slice(20, 41))
    labels = _labels(owner, [pc], np.eye(3), SIZE, Style())
    assert sorted(lab["kind"] for lab in labels) == ["index", "partial"]
    partial = next(lab for lab in labels if lab["kind"] == "partial")
    assert partial["card"] == "7H" and partial["card_id"] == 0
    assert partial["box"] == [9.5, 9.5, 30.5, 19.5] and partial["visible"] < 0.6
    # no detector target, and no classifier crop of its card
    assert [line.split()[0] for line in yolo_lines(labels, SIZE, "detector")] == ["0"]
    owner[60:, :] = 1  # the turned index hidden: nothing is labelled for it at all
    labels = _labels(owner, [pc], np.eye(3), SIZE, Style())
    assert [lab["kind"] for lab in labels] == ["partial"]


def test_covered_labels_are_no_detector_target() -> None:
    owner, pc = _card_with_index("7H", slice(28, 41))
    labels = _labels(owner, [pc], np.eye(3), SIZE, Style())
    lines = yolo_lines(labels, SIZE, "detector")
    assert sorted(lab["kind"] for lab in labels) == ["covered", "index"]
    assert [line.split()[0] for line in lines] == ["0"]  # the turned index alone
    assert lines[0].split()[2] == f"{(69.5 + 100.5) / 2 / 120:.6f}"


def test_a_covered_index_becomes_a_none_crop(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "cards").mkdir()
    image = np.full((120, 120, 3), 200, np.uint8)
    cv2.putText(image, "7", (12, 26), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 200), 2)
    cv2.imwrite(str(tmp_path / "images" / "000000.jpg"), image)
    owner, pc = _card_with_index("7H", slice(28, 41))
    owner[60:, :] = 1  # the turned index hidden too: only the covered one is left
    labels = _labels(owner, [pc], np.eye(3), SIZE, Style())
    assert [lab["kind"] for lab in labels] == ["covered"]
    (tmp_path / "cards" / "000000.json").write_text(json.dumps(labels))
    x, y = crops_from_dataset(tmp_path, random.Random(0), per_index=3, negatives=0.0)
    # three jittered crops of the covered index, two random background crops: all `none`
    assert len(y) == 5 and (y == NONE).all() and x.shape[1:] == (48, 48, 3)


def test_the_turned_corner_has_its_pip_above_its_rank() -> None:
    # the bottom-right index is printed turned: hiding its lower part leaves its pip showing
    owner, pc = _card_with_index("7H", slice(90, 101))
    assert len(_index_labels(owner, pc, Style())) == 2
    owner, pc = _card_with_index("7H", slice(70, 80))  # its upper third: the pip
    assert [lab["box"][1] for lab in _index_labels(owner, pc, Style())] == [9.5]


def test_a_joker_index_has_no_pip_to_require() -> None:
    owner, pc = _card_with_index("JK", slice(28, 41))
    assert len(_index_labels(owner, pc, Style())) == 2


def test_scenes_with_print_have_negatives_apart_from_the_cards() -> None:
    decks = [fallback_deck()]
    style = Style(distractors=1.0)
    found = 0
    for i in range(6):
        scene = compose_scene(np.random.default_rng([3, i]), decks, (320, 320), style)
        negatives = [lab for lab in scene.labels if lab["kind"] == "negative"]
        found += len(negatives)
        for lab in negatives:
            x1, y1, x2, y2 = lab["box"]
            assert 0 <= x1 < x2 <= 320 and 0 <= y1 < y2 <= 320
            assert lab["card"] is None
    assert found > 0


def test_the_legacy_style_draws_the_earlier_scenes() -> None:
    # no print and no pip rule: the scene is the earlier generator's, pixel for pixel
    decks = [fallback_deck()]
    a = compose_scene(np.random.default_rng([9, 0]), decks, (200, 200), LEGACY)
    b = compose_scene(np.random.default_rng([9, 0]), decks, (200, 200),
                      Style(distractors=0.0, pip_min_visible=0.0))
    assert np.array_equal(a.image, b.image) and a.labels == b.labels


@pytest.mark.parametrize("kind", [*distractors.KINDS[2:], distractors.scan_mat])
def test_every_kind_of_print_inks_the_table(kind: distractors.Drawer) -> None:
    canvas = np.full((400, 400, 3), 120, np.float32)
    quads = kind(np.random.default_rng(1), canvas, 80.0)
    assert not np.all(canvas == 120)
    assert all(q.shape == (4, 2) for q in quads)


def test_text_print_needs_a_font_and_marks_its_glyphs() -> None:
    if not distractors.fonts_for("latin"):
        pytest.skip("no fonts under /usr/share/fonts")
    canvas = np.full((400, 400, 3), 200, np.float32)
    quads = []
    for seed in range(5):
        quads += distractors.text_block(np.random.default_rng(seed), canvas, 100.0)
    assert quads


def test_negatives_become_none_crops(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    render_dataset(out, 4, 256, seed=2, decks=[fallback_deck()],
                   style=Style(distractors=1.0))
    x, y = crops_from_dataset(out, random.Random(0), per_index=1, negatives=0.0)
    assert (y == NONE).sum() > 0 and x.shape[1:] == (48, 48, 3)


def test_font_decks_print_every_card_with_both_indices() -> None:
    if not fontdeck.index_fonts():
        pytest.skip("no fonts under /usr/share/fonts")
    deck = fontdeck.make_deck(3)
    assert len(deck.faces) == 53 and set(deck.by_card) >= {"AS", "10H", "KC", "JK"}
    for face in deck.faces:
        h, w = face.image.shape[:2]
        for x1, y1, x2, y2 in face.index:
            assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
            ink = face.image[y1:y2, x1:x2, :3].min(axis=2)
            assert (ink < 150).mean() > 0.05  # the index is printed there
    again = fontdeck.make_deck(3)
    assert np.array_equal(again.faces[5].image, deck.faces[5].image)  # same seed, same deck
