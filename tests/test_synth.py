"""Synthetic scene generator: label validity, occlusion bookkeeping, split, determinism.

The first group runs on the built-in fallback deck, so CI exercises the composer without
the card art; the art-dependent tests skip when `data/cards` has not been rendered.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")

from scorekeeper_lab.training.synth import deckset  # noqa: E402
from scorekeeper_lab.training.synth.compose import Scene, Style, compose_scene  # noqa: E402
from scorekeeper_lab.training.synth.dataset import render_dataset  # noqa: E402
from scorekeeper_lab.training.synth.deckset import Deck  # noqa: E402
from scorekeeper_lab.training.synth.fallback import fallback_deck  # noqa: E402

SIZE = (224, 224)
INDEX_MIN = 0.6
CARD_MIN = 0.9
# the index-count bounds below check the visible-share rule alone (the pip rule and the
# distractors have tests of their own)
LABELS = Style(index_min_visible=INDEX_MIN, card_min_visible=CARD_MIN, pip_min_visible=0.0,
               distractors=0.0)
TOL = 0.03  # pixel-count vs. polygon-area rounding near a threshold


def _fraction(owner: np.ndarray, poly: np.ndarray, cid: int, area: float | None = None) -> float:
    """Independent recount: full-frame polygon fill, pixels still owned by `cid`."""
    mask = np.zeros(owner.shape, np.uint8)
    cv2.fillPoly(mask, [np.round(poly * 16).astype(np.int32)], 1, shift=4)
    area = area or abs(cv2.contourArea(poly.astype(np.float32)))
    return float(((mask > 0) & (owner == cid)).sum()) / area if area else 0.0


def check_scene(scene: Scene, size: tuple[int, int] = SIZE) -> None:
    w, h = size
    assert scene.image.shape == (h, w, 3) and scene.image.dtype == np.uint8
    by_id: dict[int, list[dict]] = defaultdict(list)
    for lab in scene.labels:
        x1, y1, x2, y2 = lab["box"]
        assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h, lab
        assert lab["kind"] in ("index", "card", "partial")
        if lab["kind"] == "partial":  # an index showing too little to be asked for
            assert 0 < lab["visible"] < INDEX_MIN, lab
        else:
            minimum = INDEX_MIN if lab["kind"] == "index" else CARD_MIN
            assert lab["visible"] >= minimum, lab
        by_id[lab["card_id"]].append(lab)
    for pc in scene.cards:
        labs = by_id.get(pc.card_id, [])
        if pc.card is None:
            assert not labs, "face-down cards carry no labels"
            continue
        assert all(lab["card"] == pc.card for lab in labs)
        fracs = [_fraction(scene.owner, q, pc.card_id) for q in pc.quads]
        n_index = sum(lab["kind"] == "index" for lab in labs)
        assert n_index + sum(lab["kind"] == "partial" for lab in labs) <= len(pc.quads)
        assert sum(f >= INDEX_MIN + TOL for f in fracs) <= n_index <= sum(
            f >= INDEX_MIN - TOL for f in fracs), (pc.card, fracs, labs)
        card_frac = _fraction(scene.owner, pc.outline, pc.card_id, pc.area)
        n_card = sum(lab["kind"] == "card" for lab in labs)
        assert n_card <= 1
        if card_frac < CARD_MIN - TOL:
            assert n_card == 0, (pc.card, card_frac)
        if card_frac > CARD_MIN + TOL:
            assert n_card == 1, (pc.card, card_frac)


def _scenes(decks: list[Deck], n: int, size: tuple[int, int] = SIZE) -> list[Scene]:
    return [compose_scene(np.random.default_rng([7, i]), decks, size, LABELS)
            for i in range(n)]


# --- built-in fallback deck: always runs ------------------------------------------------------

def test_fallback_scenes_have_valid_labels() -> None:
    scenes = _scenes([fallback_deck()], 6)
    for scene in scenes:
        check_scene(scene)
    assert sum(lab["kind"] == "index" for s in scenes for lab in s.labels) > 5


def test_fixed_seed_is_deterministic() -> None:
    a, b = _scenes([fallback_deck()], 2), _scenes([fallback_deck()], 2)
    for x, y in zip(a, b, strict=True):
        assert np.array_equal(x.image, y.image)
        assert x.labels == y.labels


def test_identical_cards_get_distinct_card_ids() -> None:
    base = fallback_deck()
    twin = Deck("twins", base.back, [f for f in base.faces if f.card == "QD"])
    seen = 0
    for scene in _scenes([twin], 4):
        check_scene(scene)
        ids = {lab["card_id"] for lab in scene.labels}
        faces = [pc for pc in scene.cards if pc.card == "QD"]
        assert len({pc.card_id for pc in faces}) == len(faces)
        seen += len(ids) > 1
    assert seen, "no scene showed two QD cards"


def test_render_dataset_writes_yolo_and_resumes(tmp_path: Path) -> None:
    decks = [fallback_deck()]
    out = tmp_path / "ds"
    assert render_dataset(out, 3, 160, seed=1, decks=decks) == 3
    assert render_dataset(out, 3, 160, seed=1, decks=decks) == 0  # resumed: nothing to do
    for i in range(3):
        objs = json.loads((out / "cards" / f"{i:06d}.json").read_text())
        lines = (out / "labels" / f"{i:06d}.txt").read_text().split()
        boxes = [o for o in objs if o["kind"] in ("index", "card")]  # negatives: no line
        assert len(lines) == 5 * len(boxes)
        for k in range(0, len(lines), 5):
            assert lines[k] in ("0", "1")
            assert all(0.0 <= float(v) <= 1.0 for v in lines[k + 1:k + 5])
        assert cv2.imread(str(out / "images" / f"{i:06d}.jpg")).shape == (160, 160, 3)
    cards = tmp_path / "cards53"
    render_dataset(cards, 2, 160, seed=1, decks=decks, classes="cards")
    classes = {int(line.split()[0]) for p in (cards / "labels").glob("*.txt")
               for line in p.read_text().splitlines()}
    assert classes and all(0 <= c <= 53 for c in classes)


# --- real card art: skipped when data/cards is not rendered ------------------------------------

needs_art = pytest.mark.skipif(not deckset.cache_ready(), reason="card art cache not rendered "
                               "(run lab/install_card_art.sh)")


@needs_art
def test_art_scenes_have_valid_labels() -> None:
    decks = deckset.load_decks("train")
    for scene in _scenes(decks, 4, (320, 320)):
        check_scene(scene, (320, 320))


@needs_art
def test_held_out_deck_never_in_train() -> None:
    test_names = set(deckset.deck_names("test"))
    train = deckset.load_decks("train")
    assert test_names and not test_names & {d.name for d in train}
    for scene in _scenes(train, 4, (256, 256)):
        assert not {lab["deck"] for lab in scene.labels} & test_names
    held = deckset.load_decks("test")
    assert {d.name for d in held} == test_names
