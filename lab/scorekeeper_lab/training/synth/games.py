"""Random game tables: the melds and leftover hands of 2–4 players, at the product's scale.

The random scenes of `compose` measure how small, covered and scattered an index may get;
their figure cannot tell whether a table's own deck is read better, because what loses
cards there is the scene. These tables are what the players meet at the end of a hand: per
player 0–3 valid melds laid as overlapping rows (every card's left index strip showing) and
the cards left in hand fanned or spread in a row, each group apart from the others at a
small angle, seen straight down by the camera of a recommended set-up (`SETUPS`), at its
scale, on the renderer's table surfaces and, for a share of tables, on the printed scan mat
(its markers left uncovered, as a calibrated table needs them).

Cards are drawn as `tables.render_table` draws them (its spec format and group geometry,
`tables.lay_cards`, and its mild light and camera, `tables.photograph`), on any of the
renderer's surfaces or on the mat rather than felt or wood alone. Labels follow the
held-out set's rules (`compose.DEFAULT`), so `scorekeeper-lab eval --synthetic` reads both
alike. The spacing of rows and fans follows each design's index boxes, so on every design
each card shows at least one whole index.
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scorekeeper_lab.training.synth import backgrounds, camera, distractors, tables
from scorekeeper_lab.training.synth.cards import RANKS, SUITS
from scorekeeper_lab.training.synth.compose import DEFAULT, _labels
from scorekeeper_lab.training.synth.dataset import JPEG_QUALITY, _write_atomic, yolo_lines
from scorekeeper_lab.training.synth.deckset import Deck
from scorekeeper_lab.training.synth.layout import Placement, rot

Size = tuple[int, int]
CARD_MM = 63.0  # a poker card's short side: what fixes a set-up's scale in pixels
INDEX_MM = 20.0  # the printed index's height (docs/hardware.md)
MELDS = (0, 3)  # melds a player has laid down
HAND = (1, 7)  # cards left in a hand
RUN = (3, 6)  # cards in a run
GAP = 0.12  # card widths kept free between two groups
TRIES = 15  # deals that find no room before one player (then one meld each) fewer


@dataclass(frozen=True)
class Setup:
    """A camera over the table: the frame it delivers and the field of table it spans."""

    name: str
    frame: Size
    field_mm: tuple[float, float]
    mat: str | None  # the scan mat the set-up looks at, when drawn
    note: str

    @property
    def px_per_mm(self) -> float:
        return self.frame[0] / self.field_mm[0]

    @property
    def card_px(self) -> float:
        return CARD_MM * self.px_per_mm

    def at_width(self, width: int) -> Setup:
        """The same view in a frame `width` pixels across (small frames for tests)."""
        return replace(self, frame=(width, round(width * self.frame[1] / self.frame[0])))

    def describe(self) -> dict[str, Any]:
        return {**asdict(self), "px_per_mm": round(self.px_per_mm, 3),
                "card_px": round(self.card_px, 1),
                "index_px": round(INDEX_MM * self.px_per_mm, 1)}


SETUPS: dict[str, Setup] = {
    # docs/hardware.md: the A3 mat with a margin needs a field of about 460 × 340 mm; a 4:3
    # camera at 1280 × 960 (the frame the reader's figures and samples use) framing it
    "a3": Setup("a3", (1280, 960), (460.0, 345.0), "A3",
                "1280 × 960 (4:3) over the A3 scan mat with a margin: 460 × 345 mm"),
    "a4": Setup("a4", (1280, 960), (340.0, 255.0), "A4",
                "1280 × 960 (4:3) over the A4 scan mat with a margin: 340 × 255 mm"),
    # docs/hardware.md, table mode: a 90 cm table under a Camera Module 3 at 123 cm, read
    # at 2304 × 1296 (W = 1600 mm)
    "table": Setup("table", (2304, 1296), (1600.0, 900.0), "A3",
                   "2304 × 1296 (16:9) over a whole 90 cm table: 1600 × 900 mm"),
}


# ---- dealing: valid melds and leftover hands -------------------------------------------------

def _meld(rng: np.random.Generator, pool: Counter[str]) -> list[str] | None:
    """A set (3–4 of a rank, distinct suits) or a run (3–6 of a suit, ace low) still in
    `pool`, taken out of it; None when a few tries find none."""
    for _ in range(40):
        if rng.random() < 0.5:
            rank = RANKS[int(rng.integers(len(RANKS)))]
            suits = [s for s in SUITS if pool[rank + s] > 0]
            if len(suits) < 3:
                continue
            n = int(rng.integers(3, len(suits) + 1))
            cards = [rank + suits[int(i)] for i in rng.permutation(len(suits))[:n]]
        else:
            suit = SUITS[int(rng.integers(len(SUITS)))]
            n = int(rng.integers(RUN[0], RUN[1] + 1))
            lo = int(rng.integers(0, len(RANKS) - n + 1))
            cards = [RANKS[r] + suit for r in range(lo, lo + n)]
            if any(pool[c] == 0 for c in cards):
                continue
        pool.subtract(cards)
        return cards
    return None


def deal(rng: np.random.Generator, players: tuple[int, int] = (2, 4),
         melds: tuple[int, int] = MELDS, hand: tuple[int, int] = HAND) -> list[dict[str, Any]]:
    """Groups without places: per player its melds, then its hand (from one or two decks)."""
    copies = 2 if rng.random() < 0.5 else 1
    pool: Counter[str] = Counter({r + s: copies for s in SUITS for r in RANKS})
    out: list[dict[str, Any]] = []
    for p in range(int(rng.integers(players[0], players[1] + 1))):
        for _ in range(int(rng.integers(melds[0], melds[1] + 1))):
            cards = _meld(rng, pool)
            if cards:
                out.append({"player": p, "role": "meld", "kind": "meld", "cards": cards})
        left = list(pool.elements())
        n = min(len(left), int(rng.integers(hand[0], hand[1] + 1)))
        if n == 0:
            continue
        cards = [left[int(i)] for i in rng.choice(len(left), n, replace=False)]
        pool.subtract(cards)
        kind = "single" if n == 1 else "fan" if rng.random() < 0.5 else "meld"
        out.append({"player": p, "role": "hand", "kind": kind, "cards": cards})
    return out


# ---- geometry: spacing that shows every index, places that cover nothing --------------------

@dataclass(frozen=True)
class Reach:
    """How far into a face its top-left index reaches (card widths, card heights)."""

    x: float
    y: float
    aspect: float


def reach(deck: Deck) -> Reach:
    faces = [f for f in deck.faces if f.card != "JK"]  # jokers are not dealt
    x = max(f.index[0][2] / f.image.shape[1] for f in faces)
    y = max(f.index[0][3] / f.image.shape[0] for f in faces)
    return Reach(x, y, max(f.image.shape[0] / f.image.shape[1] for f in faces))


def _shape(rng: np.random.Generator, g: dict[str, Any], r: Reach) -> dict[str, Any]:
    """Spacing as a player lays the group: a meld row just clear of the index strip, a
    hand row looser, a fan turned enough per card to show each index whole."""
    if g["kind"] == "meld":
        extra = rng.uniform(0.05, 0.1) if g["role"] == "meld" else rng.uniform(0.12, 0.3)
        return {**g, "step": round(max(tables.MELD_STEP, r.x + extra), 3)}
    if g["kind"] == "fan":
        radius = float(rng.uniform(0.9, 1.2))
        d = (radius + 0.5 - r.y) * r.aspect  # pivot to the index's foot, card widths
        need = math.degrees((r.x + 0.08) / d)
        return {**g, "radius": round(radius, 3),
                "spread": round(max(need, float(rng.uniform(9, 13))), 2)}
    return g


def _corners(p: Placement) -> np.ndarray:
    assert p.face is not None
    h, w = p.face.image.shape[:2]
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * (p.width / 2, p.width * h / w / 2)
    return np.asarray(half @ rot(p.angle).T + p.centre)


def _hull(g: dict[str, Any], deck: Deck, size: Size, s: float) -> np.ndarray:
    pts = np.concatenate([_corners(p) for p in tables._group(g, deck, size, s)])
    return np.asarray(cv2.convexHull(pts.astype(np.float32))[:, 0], float)


class _Floor:
    """What of the frame is taken, at a quarter of its resolution."""

    Q = 0.25

    def __init__(self, size: Size, gap: float) -> None:
        w, h = size
        self.taken = np.zeros((math.ceil(h * self.Q), math.ceil(w * self.Q)), np.uint8)
        k = max(1, round(2 * gap * self.Q) | 1)
        self.kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))

    def _mask(self, poly: np.ndarray) -> np.ndarray:
        m = np.zeros_like(self.taken)
        cv2.fillConvexPoly(m, np.round(poly * self.Q * 16).astype(np.int32), 1, shift=4)
        return m

    def fits(self, poly: np.ndarray) -> bool:
        grown = np.asarray(cv2.dilate(self._mask(poly), self.kernel), np.uint8)
        return not (grown & self.taken).any()

    def take(self, poly: np.ndarray) -> None:
        self.taken |= self._mask(poly)


def place(rng: np.random.Generator, groups: list[dict[str, Any]], deck: Deck, size: Size,
          s: float, reserved: Sequence[np.ndarray] = (), tries: int = 150
          ) -> list[dict[str, Any]] | None:
    """Each group at a free place in the frame at a small angle, apart from every other
    group and from `reserved` (the mat's markers); None when one finds no place."""
    w, h = size
    floor = _Floor(size, GAP * s)
    for poly in reserved:
        floor.take(poly)
    margin = 0.02 * min(w, h)
    shaped = [{**g, "at": [0.0, 0.0], "angle": 0.0} for g in groups]

    def put(i: int) -> bool:
        for _ in range(tries):
            angle = float(np.clip(rng.normal(0, 4), -10, 10))
            hull = _hull({**shaped[i], "angle": angle}, deck, size, s)
            lo = margin - hull.min(0)
            hi = np.array([w - margin, h - margin]) - hull.max(0)
            if (hi < lo).any():
                return False  # larger than the view
            t = rng.uniform(lo, hi)
            if floor.fits(hull + t):
                floor.take(hull + t)
                shaped[i].update(at=[round(float(t[0] / w), 4), round(float(t[1] / h), 4)],
                                 angle=round(angle, 2))
                return True
        return False

    # the largest first: they need the most room
    order = sorted(range(len(groups)), key=lambda i: -cv2.contourArea(
        _hull(shaped[i], deck, size, s).astype(np.float32)))
    return shaped if all(put(i) for i in order) else None


# ---- the surface: a table, or the scan mat on it ------------------------------------------

def _surface(rng: np.random.Generator, size: Size, px_mm: float, mat: str | None
             ) -> tuple[np.ndarray, list[np.ndarray]]:
    """(float32 BGR table, marker quads to keep clear): any of the renderer's surfaces with
    its clutter, and with `mat` the scan mat printed at true size near the middle."""
    canvas = backgrounds.table(rng, size).astype(np.float32)
    if mat is None:
        return canvas, []
    from scorekeeper.calibration.layout import MAT_SIZES, mat_layout

    if mat not in MAT_SIZES:
        raise ValueError(f"mat must be one of {', '.join(MAT_SIZES)}, got {mat!r}")
    layout = mat_layout(mat)
    page = distractors._mat_image(mat, round(px_mm, 3))
    w, h = size
    centre = (w / 2 + float(rng.normal(0, 0.01 * w)), h / 2 + float(rng.normal(0, 0.01 * h)))
    paper = rng.uniform(225, 252, 3).astype(np.float32)
    ink = rng.uniform(10, 45, 3).astype(np.float32)
    m = distractors._sheet(rng, canvas, 1.0 - page.astype(np.float32) / 255.0, paper, ink,
                           centre, float(rng.normal(0, 1.0)))
    k = page.shape[1] / layout.size_mm[0]  # mat pixels a mm
    quads = []
    for marker in layout.markers:
        c = np.array(marker.center_mm)
        sq = (np.array(marker.corners_mm) - c) * 1.25 + c  # the marker and its white margin
        quads.append(sq * k @ m[:, :2].T + m[:, 2])
    return canvas, quads


# ---- one table ----------------------------------------------------------------------------

@dataclass(frozen=True)
class GameTable:
    image: np.ndarray
    labels: list[dict[str, Any]]  # as the dataset's cards/*.json, plus "player" and "group"
    truth: dict[str, Any]


def draw(spec: list[dict[str, Any]], deck: Deck, canvas: np.ndarray, s: float,
         rng: np.random.Generator, look: str = "mild") -> GameTable:
    """Cards of `spec` (render_table's format) on `canvas`; `look` "mild" is render_table's
    even light and clean camera, "harsh" the random renderer's light, glare, blur and JPEG."""
    h, w = canvas.shape[:2]
    size = (w, h)
    laid = tables.lay_cards(spec, deck, canvas, s, rng)
    if look == "harsh":
        camera.light_table(rng, canvas)
        image = camera.shoot(rng, canvas, np.eye(3), size)
    elif look == "mild":
        image = tables.photograph(rng, canvas)
    else:
        raise ValueError(f"look must be mild or harsh, got {look!r}")
    labels = _labels(laid.owner, laid.placed, np.eye(3), size, DEFAULT)
    for lab in labels:
        gi = laid.group_of[lab["card_id"]]
        lab.update(group=gi, player=spec[gi]["player"])
    cards = []
    for pc, gi in zip(laid.placed, laid.group_of, strict=True):
        cards.append({
            "card": pc.card, "group": gi, "player": spec[gi]["player"],
            "outline": [[round(float(x), 1), round(float(y), 1)] for x, y in pc.outline],
            "indices": [lab["box"] for lab in labels
                        if lab["card_id"] == pc.card_id and lab["kind"] == "index"]})
    truth = {"size": [w, h], "deck": deck.name, "card_width": round(s, 1),
             "spec": spec, "cards": cards}
    return GameTable(image, labels, truth)


def game_table(rng: np.random.Generator, decks: list[Deck], setup: Setup,
               players: tuple[int, int] = (2, 4), mat: float = 0.5,
               look: str = "mild") -> GameTable:
    """One random table: a deck design, a surface (the mat with chance `mat`), a deal that
    fits the view (while none does, players are dropped down to the least, then melds),
    the picture."""
    deck = decks[int(rng.integers(len(decks)))]
    size, s = setup.frame, setup.card_px
    on_mat = setup.mat if setup.mat and rng.random() < mat else None
    canvas, reserved = _surface(rng, size, setup.px_per_mm, on_mat)
    r = reach(deck)
    attempts = TRIES * (players[1] - players[0] + MELDS[1] + 1)
    for attempt in range(attempts):
        fewer = attempt // TRIES
        most = max(players[0], players[1] - fewer)
        melds = (0, max(0, MELDS[1] - max(0, fewer - (players[1] - players[0]))))
        groups = [_shape(rng, g, r) for g in deal(rng, (players[0], most), melds)]
        spec = place(rng, groups, deck, size, s, reserved)
        if spec is not None:
            table = draw(spec, deck, canvas, s, rng, look)
            table.truth.update(setup=setup.name, mat=on_mat, look=look,
                               players=len({g["player"] for g in spec}), deals=attempt + 1)
            return table
    raise RuntimeError(f"no deal of {players[0]} players fits the {setup.name} view "
                       f"in {attempts} tries")


# ---- a dataset ----------------------------------------------------------------------------

def summary(out: Path) -> dict[str, Any]:
    """What the tables on disk hold: players, cards, index sizes, surfaces."""
    players: Counter[int] = Counter()
    cards, sizes, mats = [], [], 0
    for path in sorted((out / "truth").glob("*.json")):
        t = json.loads(path.read_text())
        players[t["players"]] += 1
        cards.append(len(t["cards"]))
        mats += t["mat"] is not None
        sizes += [max(b[2] - b[0], b[3] - b[1]) for c in t["cards"] for b in c["indices"]]
    n = len(cards)
    return {"tables": n, "players": dict(sorted(players.items())), "on_mat": mats,
            "cards": sum(cards), "cards_per_table": round(sum(cards) / max(1, n), 1),
            "index_px_median": round(float(np.median(sizes)), 1) if sizes else None,
            "index_px_range": [round(min(sizes), 1), round(max(sizes), 1)] if sizes else None}


def render_games(out: Path, count: int, decks: list[Deck], setup: Setup, seed: int = 0,
                 players: tuple[int, int] = (2, 4), mat: float = 0.5, look: str = "mild",
                 split: str = "") -> dict[str, Any]:
    """Tables 0..count-1 not on disk yet, in the `render` dataset's layout (images/,
    labels/, cards/, dataset.json) plus truth/ (the spec and each card's player and group);
    table i is drawn from `default_rng([seed, i])`, so a rerun or a resume draws the same."""
    for sub in ("images", "labels", "cards", "truth"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    meta = {"names": ["index", "card"], "classes": "detector", "size": list(setup.frame),
            "seed": seed, "split": split, "kind": "games", "setup": setup.describe(),
            "players": list(players), "mat": mat, "look": look, "style": asdict(DEFAULT)}
    todo = [i for i in range(count) if not (out / "truth" / f"{i:06d}.json").exists()]
    for done, i in enumerate(todo, 1):
        name = f"{i:06d}"
        table = game_table(np.random.default_rng([seed, i]), decks, setup, players, mat, look)
        ok, buf = cv2.imencode(".jpg", table.image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if not ok:
            raise RuntimeError(f"JPEG encode failed for {name}")
        _write_atomic(out / "images" / f"{name}.jpg", buf.tobytes())
        text = "\n".join(yolo_lines(table.labels, setup.frame, "detector"))
        _write_atomic(out / "labels" / f"{name}.txt", (text + "\n" if text else "").encode())
        _write_atomic(out / "cards" / f"{name}.json", json.dumps(table.labels).encode())
        _write_atomic(out / "truth" / f"{name}.json",
                      json.dumps({"image": f"{name}.jpg", **table.truth}).encode())
        print(f"\rgames {done}/{len(todo)}", end="", file=sys.stderr, flush=True)
    if todo:
        print(file=sys.stderr)
    meta["summary"] = summary(out)
    (out / "dataset.json").write_text(json.dumps(meta, indent=1) + "\n")
    return meta
