"""`scorekeeper deck adapt`: fine-tune the shipped index classifier on one deck's examples.

A table's deck is a handful of crops; the shipped classifier has seen ~60 000 of 34
designs. So the network starts from the shipped weights and trains, for a fixed time, on
batches that are half the deck's crops (shifted, scaled, turned, blurred, relit and partly
covered: what a meld row or a fan does to an index) and half crops of the other designs
and of print that is no index, so it keeps reading them.

The install check: a fifth of the deck's photos is held back whole (training never sees
their crops) and read with the full reader (detector, classifier, pairing) by the generic
model, the deck's current one and the candidate; a candidate that reads fewer of their
cards exactly, or more false cards, than either is refused, however well it reads crops
(measured: a detector adapted from rendered scenes passed a check on rendered scenes and
then read 21 cards twice on game tables). It must also show a gain: more cards, or fewer
false ones, on those photos, or more held-back crops read right under augmentation (the
hard cases adapting is for). Where no photo can be spared (2 enrolment photos are the two
halves of the deck), a fifth of the physical cards is held back and the check reads every
kept photo, exactness counted on the held-back cards, false cards everywhere. A card a
photo shows without a box (added by hand to a confirmed scan) is never trained on: the
check counts it, and a read card on no labelled card that names it is that card, read
exactly (`match_cards`).

`adapt_deck_scenes` (`deck adapt --scenes`, experimental) learns the deck where its cards
are lost instead: scenes rendered from its enrolled indices (`synth/enrolled.py`) and of
other designs, the detector and classifier fine-tuned on them, the held-back photos and
scenes read by every mix of generic and adapted networks (`choose_mix`). Its detector has
read whole photos worse each time it was measured (docs/decks.md, Figures).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import random
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import cv2
import numpy as np

from scorekeeper.decks.examples import (
    STORE,
    centre_crop,
    cut,
    kept_photos,
    load_crops,
    unboxed_cards,
)
from scorekeeper.decks.profile import DeckError, DeckProfile
from scorekeeper.training.covered import slide_over
from scorekeeper.vision.classes import CLASSIFIER_CLASSES
from scorekeeper.vision.classifier import CROP

if TYPE_CHECKING:
    from scorekeeper.training.synth.compose import Style

CLASS_OF = {c: i for i, c in enumerate(CLASSIFIER_CLASSES)}
HOLD_BACK = 0.2  # share of the deck's physical cards kept out of training, for the check
MIN_EXAMPLES = 8
BATCH = 64
PEAK_LR = 1e-3
CHECK_LOOKS = 8  # each held-back crop is also checked under this many augmentations
SYNTHETIC = 3000  # crops of the other designs made for one run
# share of the deck's index crops trained covered by another of its cards (a fan's look;
# `training.covered`, since 0.15.0)
COVERED = 0.4


class Cancelled(Exception):
    """Ctrl-C (or the caller) stopped the run; nothing was installed."""


Box = tuple[float, float, float, float]


@dataclass
class Outcome:
    installed: bool
    check: dict
    seconds: float
    steps: int
    message: str


def split_groups(rows: list[dict], seed: int) -> tuple[list[int], list[int]]:
    """(train, held back) row positions: whole physical cards go to one side, so a card's
    second corner never tells the check what its first looked like."""
    groups = sorted({r["group"] for r in rows if r["card"] != "none"})
    nones = sorted({r["group"] for r in rows if r["card"] == "none"})
    rng = random.Random(seed)
    rng.shuffle(groups)
    rng.shuffle(nones)
    held = set(groups[:max(1, round(HOLD_BACK * len(groups)))])
    held |= set(nones[:round(HOLD_BACK * len(nones))])
    train = [i for i, r in enumerate(rows) if r["group"] not in held]
    back = [i for i, r in enumerate(rows) if r["group"] in held]
    return train, back


@dataclass(frozen=True)
class Split:
    train: list[int]  # row positions to learn from
    back: list[int]  # held-back row positions: the crop check's
    photos: list[str]  # the kept photos the check reads whole
    whole: bool  # the photos are held back whole (else: every kept photo, see split_examples)


def split_examples(rows: list[dict], kept: set[str], seed: int) -> Split:
    """Hold back a fifth of the kept photos whole (at least one), each only when the photos
    that stay hold every card it shows, so training still sees the whole deck. When none can
    be spared, a fifth of the physical cards is held back (`split_groups`) and the check
    reads every kept photo, counting exactness on the held-back cards only."""
    cards: dict[str, set[str]] = {}
    for r in rows:
        if r["card"] != "none":
            cards.setdefault(str(r.get("photo") or f"source:{r.get('source')}"), set()
                             ).add(r["card"])
    photos = sorted(p for p in cards if p in kept)
    random.Random(seed).shuffle(photos)
    want = max(1, round(HOLD_BACK * len(photos)))
    held: list[str] = []
    for p in photos:
        if len(held) == want:
            break
        rest = set().union(*(c for q, c in cards.items() if q != p and q not in held))
        if cards[p] <= rest:
            held.append(p)
    if held:
        train = [i for i, r in enumerate(rows) if r.get("photo") not in held]
        back = [i for i, r in enumerate(rows) if r.get("photo") in held]
        return Split(train, back, sorted(held), True)
    train, back = split_groups(rows, seed)
    return Split(train, back, sorted(photos), False)


# ---- the check on whole photos -------------------------------------------------------

@dataclass(frozen=True)
class HeldPhoto:
    path: Path
    cards: list[tuple[str, list[Box], bool]]  # code, its index boxes, counted for exactness
    unboxed: tuple[str, ...] = ()  # cards it shows where nobody marked: always counted


@dataclass(frozen=True)
class Reads:
    """One model's reading of the held-back photos."""
    cards: int  # labelled cards counted for exactness, unboxed ones included
    exact: int
    false: int  # read cards on no labelled card, second readings of one, wrong ones

    def key(self) -> tuple[int, int]:
        return self.exact, -self.false


def held_photos(profile: DeckProfile, rows: list[dict], split: Split) -> list[HeldPhoto]:
    """The check's photos with their truth: each physical card's code and index boxes, and
    the cards each shows without a box."""
    back = {rows[i]["group"] for i in split.back}
    out = []
    for name in split.photos:
        groups: dict[str, tuple[str, list[Box]]] = {}
        for r in rows:
            if r.get("photo") == name and r["card"] != "none":
                groups.setdefault(r["group"], (r["card"], []))[1].append(tuple(r["box"]))
        out.append(HeldPhoto(profile.photos_dir / name,
                             [(c, b, split.whole or g in back)
                              for g, (c, b) in groups.items()],
                             tuple(unboxed_cards(rows, name))))
    return out



def match_cards(read: list, truth: list[tuple[str, list[Box], bool]],
                unboxed: tuple[str, ...] | list[str] = (),
                ignore: list[tuple[str, list[Box]]] | tuple[()] = ()) -> tuple[int, int]:
    """(exact, false) of one photo, matched as `scorekeeper eval` matches
    (`evaluate.match_reads`): a read card on a labelled card naming another, or on one
    already taken, or on none (unless it is one of the photo's `unboxed` cards, or an
    `ignore` index it names), is false.
    Exact cards are counted only where `truth` says so; an unboxed card read always is."""
    from scorekeeper.vision.evaluate import match_reads

    matched = match_reads(read, [(code, boxes) for code, boxes, _ in truth], unboxed, ignore)
    right = [k for k, card in matched.hits.items() if card.card == truth[k][0]]
    exact = sum(truth[k][2] for k in right) + len(matched.unboxed)
    return exact, len(matched.hits) - len(right) + len(matched.strays)


def read_photos(reader, photos: list[HeldPhoto], images: list[np.ndarray]) -> Reads:
    """Read each held-back photo whole with `reader` (a CardReader)."""
    exact = false = 0
    for photo, image in zip(photos, images, strict=True):
        e, f = match_cards(reader.read(image).cards, photo.cards, photo.unboxed)
        exact, false = exact + e, false + f
    return Reads(sum(sum(c[2] for c in p.cards) + len(p.unboxed) for p in photos), exact, false)


def refusal(candidate: Reads, rivals: dict[str, Reads]) -> str | None:
    """Why the candidate may not be installed (None: it reads the held-back photos no worse
    than any rival on either count)."""
    for name, r in rivals.items():
        if candidate.exact < r.exact:
            return (f"it read {candidate.exact} of the held-back photos' {r.cards} cards "
                    f"exactly, the {name} model {r.exact}")
        if candidate.false > r.false:
            return (f"it read {candidate.false} false cards in the held-back photos, the "
                    f"{name} model {r.false}")
    return None


def photo_rivals(models: Path, profile: DeckProfile, photos: list[HeldPhoto],
                 images: list[np.ndarray]) -> dict[str, Reads]:
    """The generic model's reading of the held-back photos and the deck's current one's
    (when it has a model that loads)."""
    from scorekeeper.vision.reader import CardReader

    rivals = {"generic": read_photos(CardReader(models), photos, images)}
    if profile.detector_path is not None or profile.classifier_path is not None:
        current = CardReader(models, deck=profile)
        if current.deck is not None and not current.warnings:
            rivals["current"] = read_photos(current, photos, images)
    return rivals


def candidate_reads(models: Path, profile: DeckProfile, files: dict[str, Path],
                    photos: list[HeldPhoto], images: list[np.ndarray]) -> Reads | None:
    """The held-back photos read with the generic networks replaced by `files` ("detector",
    "classifier": ONNX files in one folder); None when one of them does not load."""
    from scorekeeper.vision.reader import CardReader

    folder = {f.parent for f in files.values()}.pop()
    candidate = DeckProfile(profile.name, folder, {k: {"onnx": f.name} for k, f in files.items()})
    reader = CardReader(models, deck=candidate)
    return None if reader.warnings else read_photos(reader, photos, images)


def _load_photos(photos: list[HeldPhoto]) -> tuple[list[HeldPhoto], list[np.ndarray]]:
    """The photos that can be read (a file lost since is skipped) and their images."""
    pairs = [(p, cv2.imread(str(p.path), cv2.IMREAD_COLOR)) for p in photos]
    kept = [(p, i) for p, i in pairs if i is not None]
    return [p for p, _ in kept], [i for _, i in kept]


def _figures(r: Reads) -> list[int]:
    return [r.exact, r.false]


# ---- augmentation ----------------------------------------------------------------------

def augment(stored: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A stored crop → one 48 px crop as a camera might give it: the reader's crop shifted,
    scaled and tilted (a detector box is never exact), blurred or low-resolution, relit,
    and sometimes partly covered by a neighbouring card."""
    s = rng.uniform(0.8, 1.25)  # >1: the box was larger than the index
    angle = rng.uniform(-15, 15)
    shift = rng.uniform(-0.08, 0.08, 2) * CROP
    m = cv2.getRotationMatrix2D((STORE / 2, STORE / 2), angle, 1 / s)
    m[:, 2] = m[:, 2] + shift - (STORE - CROP) / 2
    img: np.ndarray = cv2.warpAffine(stored, m, (CROP, CROP), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    if rng.random() < 0.5:  # a smaller index in the frame: detail lost, then enlarged
        k = rng.uniform(0.3, 0.8)
        small = cv2.resize(img, (max(8, round(CROP * k)),) * 2, interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (CROP, CROP), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.4:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.4))
    if rng.random() < 0.3:
        img = _cover(img, rng)
    gain = rng.uniform(0.6, 1.3) * rng.uniform(0.9, 1.1, 3)
    img = img * gain + rng.uniform(-25, 25)
    if rng.random() < 0.3:  # glare or shadow across part of the crop
        ramp = np.linspace(-1, 1, CROP, dtype=np.float32)[None, :] * rng.uniform(-40, 40)
        img = img + (ramp if rng.random() < 0.5 else ramp.T)[..., None]
    img = img + rng.normal(0, rng.uniform(0, 6), img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def _cover(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A neighbouring card's edge over one side: up to a quarter of the crop, paper-bright
    or coloured, with its shadow line."""
    depth = int(rng.uniform(0.1, 0.28) * CROP)
    colour = rng.uniform(170, 255, 3) if rng.random() < 0.7 else rng.uniform(0, 255, 3)
    out = img.copy()
    side = int(rng.integers(4))
    sl = [slice(None), slice(None)]
    sl[side % 2] = slice(0, depth) if side < 2 else slice(CROP - depth, CROP)
    out[tuple(sl)] = colour
    return out


# ---- crops of the other designs ------------------------------------------------------

def other_designs(count: int, rng: np.random.Generator, cards_dir: Path | None = None
                  ) -> tuple[list[np.ndarray], list[int]]:
    """Stored-format crops of the training designs' indices (and of their card middles,
    as `none`), so the adapted model does not forget them. Falls back to the drawn deck
    when the art is not installed (a Pi, CI)."""
    from scorekeeper.training.synth.deckset import cache_ready, load_decks
    from scorekeeper.training.synth.fallback import fallback_deck

    decks = load_decks("train", cards_dir) if cache_ready(cards_dir) else [fallback_deck()]
    crops: list[np.ndarray] = []
    labels: list[int] = []
    bg = np.array([(40, 90, 30), (30, 50, 90), (120, 120, 120), (200, 200, 200), (20, 20, 20)])
    while len(crops) < count:
        deck = decks[int(rng.integers(len(decks)))]
        face = deck.faces[int(rng.integers(len(deck.faces)))]
        x1, y1, x2, y2 = face.index[int(rng.integers(len(face.index)))]
        f = rng.uniform(16, 45) / max(x2 - x1, y2 - y1)  # the index's long side, px
        h, w = face.image.shape[:2]
        img = cv2.resize(face.image, (max(4, round(w * f)), max(4, round(h * f))),
                         interpolation=cv2.INTER_AREA).astype(np.float32)
        alpha = img[:, :, 3:4] / 255
        colour = bg[int(rng.integers(len(bg)))] + rng.uniform(-20, 20, 3)
        img = img[:, :, :3] * alpha + colour * (1 - alpha)
        box = (x1 * f, y1 * f, x2 * f, y2 * f)
        label = CLASS_OF[face.card]
        if rng.random() < 0.2:  # the card's middle: pips and court art are no index
            side = max(box[2] - box[0], box[3] - box[1])
            cx, cy = rng.uniform(0.35, 0.65) * img.shape[1], rng.uniform(0.35, 0.65) * img.shape[0]
            box = (cx - side / 3, cy - side / 2, cx + side / 3, cy + side / 2)
            label = CLASS_OF["none"]
        crops.append(cut(np.clip(img, 0, 255).astype(np.uint8), box))
        labels.append(label)
    return crops, labels


# ---- the run -------------------------------------------------------------------------

def _load_generic(models: Path):  # -> torch.nn.Module
    import torch

    from scorekeeper.training.classifier_train import build_model, recorded_width

    pt = models / "cards-cls.pt"
    if not pt.is_file():
        raise DeckError(f"adapting needs the generic classifier's weights {pt} "
                        "(they ship in models/)")
    model = build_model(recorded_width(models))
    model.load_state_dict(torch.load(pt, map_location="cpu"))
    return model.eval()


def _probabilities(model, crops: np.ndarray) -> np.ndarray:
    """The reader's answer: softmax averaged over the four quarter turns."""
    import torch

    x = torch.from_numpy(crops[:, :, :, ::-1].copy()).permute(0, 3, 1, 2).float() / 255
    model.eval()
    with torch.no_grad():
        p = torch.stack([torch.softmax(model(torch.rot90(x, k, dims=(2, 3))), 1)
                         for k in range(4)]).mean(0)
    return p.numpy()


def score(p: np.ndarray, labels: np.ndarray, min_prob: float = 0.5) -> dict:
    """Held-back figures: an index is right when its card is the answer and sure enough; a
    `none` crop is right when no card is answered sure enough."""
    best, sure = p.argmax(1), p.max(1) >= min_prob
    none = CLASS_OF["none"]
    is_none = labels == none
    right = np.where(is_none, (best == none) | ~sure, (best == labels) & sure)
    return {"accuracy": float(right.mean()),
            "true_prob": float(p[np.arange(len(labels)), labels].mean()),
            "false": int(((best != labels) & (best != none) & sure).sum())}


def adapt_deck(profile: DeckProfile, models: Path, minutes: float = 5.0, seed: int = 0,
               cards_dir: Path | None = None, out: TextIO | None = None) -> Outcome:
    """Train for `minutes`, check on the held-back photos and crops, install only a model
    that reads them no worse and shows a gain (module docstring). Ctrl-C raises Cancelled
    after cleaning up; the profile is then as it was. `out` (progress) is standard error
    as it is at the call."""
    import torch

    out = out or sys.stderr

    start = time.monotonic()
    stored, rows = load_crops(profile)
    if sum(r["card"] != "none" for r in rows) < MIN_EXAMPLES:
        raise DeckError(f"deck {profile.name!r} has {len(rows)} examples; add labelled photos "
                        f"(`deck add`, `deck enrol`) first: at least {MIN_EXAMPLES} indices")
    labels = np.array([CLASS_OF[r["card"]] for r in rows], dtype=np.int64)
    split = split_examples(rows, kept_photos(profile, rows), seed)
    photos, images = _load_photos(held_photos(profile, rows, split))
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "0")) or os.cpu_count() or 1)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    print(f"deck {profile.name}: {len(split.train)} crops to learn from, {len(split.back)} "
          f"held back to check{_photos_note(split, photos)}; making {SYNTHETIC} crops of "
          "the other designs", file=out)
    other, other_y = other_designs(SYNTHETIC, rng, cards_dir)
    generic = _load_generic(models)
    model = _trainable(models)
    budget = max(10.0, minutes * 60 - (time.monotonic() - start) - 5 - 3 * len(photos))
    tmp = profile.folder / ".adapt-cls" / "cards-cls.onnx"
    try:
        steps = _fine_tune(
            model, lambda: _batch(stored, labels, split.train, other, other_y, rng,
                                  [tuple(r["box"]) for r in rows]), budget,
            f"adapting {profile.name}", out)
        print(f"checking on {len(split.back)} held-back crops and {len(photos)} whole "
              "photos", file=out)
        check = _check(generic, model, profile, stored, labels, split.back,
                       _min_prob(models))
        mine_crops, best_crops = check.pop("adapted_key"), check.pop("best_key")
        # a tie is no evidence: more held-back crops read right, and no more falsely
        gain = mine_crops[0] > best_crops[0] and mine_crops[1] >= best_crops[1]
        from scorekeeper.training.classifier_train import export_onnx

        tmp.parent.mkdir(exist_ok=True)
        export_onnx(model.eval(), tmp)
        why = None
        if photos:
            rivals = photo_rivals(models, profile, photos, images)
            mine = candidate_reads(models, profile, {"classifier": tmp}, photos, images)
            why = "the adapted classifier does not load" if mine is None \
                else refusal(mine, rivals)
            check["photos"] = {"photos": len(photos), "whole": split.whole,
                               "cards": rivals["generic"].cards,
                               **{k: _figures(v) for k, v in rivals.items()},
                               **({"adapted": _figures(mine)} if mine else {})}
            best = max(rivals.values(), key=Reads.key)
            gain = gain or (mine is not None and mine.key() > best.key())
        check.update(steps=steps, minutes=round((time.monotonic() - start) / 60, 2),
                     examples=len(rows))
        if why is None and not gain:
            why = (f"no gain: it read {check['adapted']:.1%} of the {check['held_back']} "
                   f"held-back crops (clean and augmented; {check['adapted_false']} false), "
                   f"the {check['best']} model {check['best_accuracy']:.1%} "
                   f"({check['best_false']} false)"
                   + (", and the held-back photos no better" if photos else ""))
        if why is not None:
            return Outcome(False, check, time.monotonic() - start, steps,
                           f"not installed: {why}{_photos_line(check)}")
        profile.install_models({"classifier": tmp}, check)  # with the generic detector
    except KeyboardInterrupt:
        raise Cancelled(f"cancelled: deck {profile.name!r} keeps its model") from None
    finally:
        shutil.rmtree(tmp.parent, ignore_errors=True)
    return Outcome(True, check, time.monotonic() - start, steps,
                   f"installed: held-back crops {check['generic']:.1%} (generic) → "
                   f"{check['adapted']:.1%} (adapted){_photos_line(check)}")


def _photos_note(split: Split, photos: list[HeldPhoto]) -> str:
    if not photos:
        return " (no whole photos kept: enrolled before they were)"
    if split.whole:
        return f", {len(photos)} whole photos held back"
    return f", reading all {len(photos)} photos (too few to hold one back)"


def _photos_line(check: dict) -> str:
    p = check.get("photos")
    if not p:
        return ""
    line = f"; held-back photos: {p['cards']} cards, exact/false generic {p['generic'][0]}/" \
        f"{p['generic'][1]}"
    if "current" in p:
        line += f", current {p['current'][0]}/{p['current'][1]}"
    if "adapted" in p:
        line += f", adapted {p['adapted'][0]}/{p['adapted'][1]}"
    return line


def _trainable(models: Path):  # -> torch.nn.Module
    """The shipped classifier, ready to fine-tune: batch norm keeps the shipped statistics,
    which a few hundred crops of one deck would skew."""
    from torch import nn

    model = _load_generic(models).train()
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.eval()
    return model


def _fine_tune(model, next_batch: Callable[[], tuple], seconds: float, what: str,
               out: TextIO) -> int:
    """Train on `next_batch()` for `seconds` (a short warm-up, then cosine), printing the
    progress and time left; the steps taken."""
    import torch
    from torch import nn

    opt = torch.optim.AdamW(model.parameters(), lr=PEAK_LR, weight_decay=1e-4)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    t0, steps, last = time.monotonic(), 0, 0.0
    while (elapsed := time.monotonic() - t0) < seconds:
        frac = elapsed / seconds
        for group in opt.param_groups:
            group["lr"] = PEAK_LR * min(1.0, frac / 0.05) * 0.5 * (1 + math.cos(math.pi * frac))
        xb, yb = next_batch()
        loss = loss_fn(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        steps += 1
        if time.monotonic() - last > 2:
            last = time.monotonic()
            left = max(0.0, seconds - (last - t0))
            print(f"\r{what}: {frac:4.0%}  {int(left) // 60}:{int(left) % 60:02d} left  "
                  f"loss {loss.item():.3f}", end="", file=out, flush=True)
    print(file=out)
    return steps


def _batch(stored: list[np.ndarray], labels: np.ndarray, train_at: list[int],
           other: list[np.ndarray], other_y: list[int], rng: np.random.Generator,
           boxes: list[Box] | None = None):
    """Half the deck's crops, half the other designs', each augmented afresh; given the
    crops' `boxes`, `COVERED` of the deck's indices with another of its cards slid over
    them as a fan lays it (`training.covered`)."""
    import torch

    n_deck = BATCH // 2
    picks = [(_covered(stored, labels, train_at, boxes, i, rng), int(labels[i]))
             for i in rng.choice(train_at, n_deck)]
    picks += [(other[i], other_y[i]) for i in rng.integers(0, len(other), BATCH - n_deck)]
    x = np.stack([augment(c, rng) for c, _ in picks])
    k = int(rng.integers(4))
    xt = torch.from_numpy(np.ascontiguousarray(np.rot90(x[:, :, :, ::-1], k, axes=(1, 2))))
    return (xt.permute(0, 3, 1, 2).float() / 255,
            torch.tensor([y for _, y in picks], dtype=torch.int64))


def _covered(stored: list[np.ndarray], labels: np.ndarray, train_at: list[int],
             boxes: list[Box] | None, i: int, rng: np.random.Generator) -> np.ndarray:
    """Crop `i`, or (an index, with `boxes`, `COVERED` of the time) it with other cards of
    the deck's training crops laid over part of its index as a fan lays them."""
    if boxes is None or labels[i] == CLASS_OF["none"] or rng.random() >= COVERED:
        return stored[i]
    cards = [j for j in train_at if j != i and labels[j] != CLASS_OF["none"]]
    if not cards:
        return stored[i]
    picks = rng.choice(len(cards), min(2, len(cards)), replace=False)
    return slide_over(stored[i], boxes[i], [(stored[cards[k]], boxes[cards[k]]) for k in picks],
                      rng)


def _min_prob(models: Path) -> float:
    """The reader's card threshold for these networks, which the check holds every
    candidate to."""
    from scorekeeper.vision.reader import card_threshold

    return card_threshold(json.loads((models / "model.json").read_text()))


def _check(generic, model, profile: DeckProfile, stored: list[np.ndarray], labels: np.ndarray,
           back_at: list[int], min_prob: float) -> dict:
    """Held-back figures of the generic, the deck's current and the adapted model."""
    # the held-back crops as photographed, and as a table's camera might see them: the
    # hard cases are what adapting is for, so the check must contain them
    rng = np.random.default_rng(1)
    crops = np.stack([centre_crop(stored[i]) for i in back_at]
                     + [augment(stored[i], rng) for i in back_at for _ in range(CHECK_LOOKS)])
    truth = np.concatenate([labels[back_at], np.repeat(labels[back_at], CHECK_LOOKS)])
    results = {"generic": score(_probabilities(generic, crops), truth, min_prob),
               "adapted": score(_probabilities(model, crops), truth, min_prob)}
    current = profile.classifier_path
    if current is not None and current.is_file():
        from scorekeeper.vision.classifier import IndexClassifier

        # an unreadable current model is no rival (onnxruntime has its own error types)
        with contextlib.suppress(Exception):
            results["current"] = score(IndexClassifier(current).probabilities(list(crops)),
                                       truth, min_prob)
    rivals = {k: v for k, v in results.items() if k != "adapted"}
    # a tie is no evidence: the new model must read more held-back crops right, and not
    # answer more of them falsely (measured: a tie decided on the mean probability of the
    # truth installed a model that read the held-out deck with 8 more false cards)
    best = max(rivals, key=lambda k: (rivals[k]["accuracy"], -rivals[k]["false"]))
    a = results["adapted"]
    return {"held_back": len(back_at), "looks": len(crops),
            "generic": results["generic"]["accuracy"],
            "adapted": a["accuracy"], "adapted_false": a["false"],
            "generic_false": results["generic"]["false"], "best": best,
            "best_accuracy": rivals[best]["accuracy"], "best_false": rivals[best]["false"],
            "adapted_key": (a["accuracy"], -a["false"]),
            "best_key": (rivals[best]["accuracy"], -rivals[best]["false"])}


# ---- learning from scenes of the deck (`deck adapt --scenes`) -------------------------

DECK_SCENES_PER_MINUTE = 50  # scenes of the deck rendered per minute of the run
OTHER_SCENES = 0.5  # scenes of other designs per scene of the deck: so they are not forgotten
CHECK_SCENES = 40  # held-back scenes of the deck the check reads (never trained on)
VAL_SCENES = 6  # the detector trainer's own end-of-run look (ultralytics insists on one)
DETECTOR_SHARE = 0.7  # of the training time, the rest is the classifier's
RESERVE_S = 40.0  # exports and the check's reads, about (2-core x86, 40 check scenes)
IMGSZ = 416  # the shipped detector's training size
DET_LR = 1e-3
FAN_COPIES = 4  # `fans`: cuts of each readable corner of the deck's scenes (a few % of them)


def adapt_deck_scenes(profile: DeckProfile, models: Path, minutes: float = 8.0, seed: int = 0,
               cards_dir: Path | None = None, out: TextIO | None = None,
               detector: bool = True, fans: bool = False) -> Outcome:
    """Learn the deck in about `minutes`: render scenes of it from its enrolled indices
    (`synth/enrolled.py`) and of other designs, fine-tune the shipped detector (unless
    `detector` is False) and classifier on them, read the held-back photos (and rendered
    held-back scenes) with every mix of generic and adapted networks, and install the best
    mix only when it reads the photos no worse than the deck's model and the generic one on
    either count and reads the photos or the scenes better. Without kept photos no detector
    is installed: nothing but whole photos can check one. `fans`: the deck's scenes draw
    half their fans tight and label a covered corner by what shows (`compose.READABLE`), and
    its readable corners are cut `FAN_COPIES` times, so the classifier learns the deck's
    own indices half hidden by its own cards. Ctrl-C raises Cancelled after cleaning up;
    the profile is then as it was."""
    from scorekeeper.training.synth.compose import DEFAULT, READABLE
    from scorekeeper.training.synth.enrolled import deck_from_examples

    out = out or sys.stderr
    start = time.monotonic()
    # OpenCV's thread pool does not survive the renderer's forks: it would hang them
    cv2.setNumThreads(1)
    budget = max(30.0, minutes * 60)
    stored, rows = load_crops(profile)
    if sum(r["card"] != "none" for r in rows) < MIN_EXAMPLES:
        raise DeckError(f"deck {profile.name!r} has {len(rows)} examples; add labelled photos "
                        f"(`deck add`, `deck enrol`) first: at least {MIN_EXAMPLES} indices")
    rng = np.random.default_rng(seed)
    split = split_examples(rows, kept_photos(profile, rows), seed)
    photos, images = _load_photos(held_photos(profile, rows, split))
    examples = len(rows)
    stored = [stored[i] for i in split.train]  # the held-back examples teach nothing
    rows = [rows[i] for i in split.train]
    work = profile.folder / ".adapt"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    try:
        deck = deck_from_examples(stored, rows, f"deck-{profile.name}", seed)
        n_deck = max(24, round(DECK_SCENES_PER_MINUTE * budget / 60))
        others = _other_decks(cards_dir, seed)
        print(f"deck {profile.name}: {len(deck.faces)} faces from its enrolled indices; "
              f"rendering {n_deck} scenes of it, {round(n_deck * OTHER_SCENES)} of "
              f"{len(others)} other designs, {CHECK_SCENES} held back to check"
              f"{_photos_note(split, photos)}", file=out)
        style = READABLE if fans else DEFAULT
        _render(work / "deck", n_deck, seed, [deck], style)
        _render(work / "check", CHECK_SCENES, seed + 10_000, [deck], style)
        if others:
            _render(work / "other", round(n_deck * OTHER_SCENES), seed + 20_000, others)
        import torch  # after the rendering: its thread pool would hang the renderer's forks

        torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "0")) or os.cpu_count() or 1)
        torch.manual_seed(seed)
        left = budget - (time.monotonic() - start) - RESERVE_S
        files: dict[str, Path] = {}
        steps = 0
        if detector:
            _render(work / "val", VAL_SCENES, seed + 30_000, [deck])
            files["detector"] = train_detector(models, work, max(20.0, left * DETECTOR_SHARE),
                                               seed, out)
        left = budget - (time.monotonic() - start) - RESERVE_S + 10
        model, steps = train_classifier(models, stored, rows, work, max(10.0, left), seed,
                                        rng, out, FAN_COPIES if fans else 1)
        from scorekeeper.training.classifier_train import export_onnx

        files["classifier"] = work / "cards-cls.onnx"
        export_onnx(model.eval(), files["classifier"])
        print(f"checking on {len(photos)} photos and {CHECK_SCENES} held-back scenes of the "
              "deck", file=out)
        check = scene_check(models, profile, work, files, photos, images, split.whole)
        check.update(steps=steps, minutes=round((time.monotonic() - start) / 60, 2),
                     examples=examples, faces=len(deck.faces), scenes=n_deck)
        chosen = check.pop("chosen")
        if not chosen:
            return Outcome(False, check, time.monotonic() - start, steps,
                           "not installed: no mix of adapted networks read the held-back "
                           f"photos no worse and better than the {check['best']} model "
                           f"(scenes: {check['best_correct']} exact, {check['best_false']} "
                           f"false){_photos_line(check)}")
        profile.install_models({k: files[k] for k in chosen}, check)
    except KeyboardInterrupt:
        raise Cancelled(f"cancelled: deck {profile.name!r} keeps its model") from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return Outcome(True, check, time.monotonic() - start, steps,
                   f"installed the adapted {' and '.join(chosen)}: held-back scenes "
                   f"{check['generic']:.1%} (generic) → {check['adapted']:.1%} of "
                   f"{check['held_back']} cards read exactly, false "
                   f"{check['generic_false']} → {check['adapted_false']}{_photos_line(check)}")


def _other_decks(cards_dir: Path | None, seed: int) -> list:
    """Designs to keep reading while this deck is learned: the training art, else
    procedural font decks (a Pi, CI), else none."""
    from scorekeeper.training.synth.deckset import cache_ready, load_decks
    from scorekeeper.training.synth.fontdeck import index_fonts, make_decks

    decks = load_decks("train", cards_dir) if cache_ready(cards_dir) else []
    if index_fonts():
        decks += make_decks(4 if decks else 8, seed + 7)
    return decks


def _render(folder: Path, count: int, seed: int, decks: list, style: Style | None = None
            ) -> None:
    from scorekeeper.training.synth.compose import DEFAULT
    from scorekeeper.training.synth.dataset import render_dataset

    stderr, sys.stderr = sys.stderr, open(os.devnull, "w")  # noqa: SIM115 - its own counter
    try:
        render_dataset(folder, count, 640, seed, workers=min(2, os.cpu_count() or 1),
                       decks=decks, style=style or DEFAULT)
    finally:
        sys.stderr.close()
        sys.stderr = stderr


def train_detector(models: Path, work: Path, seconds: float, seed: int, out: TextIO) -> Path:
    """The shipped detector fine-tuned for `seconds` on the deck's and the other designs'
    scenes (ultralytics, the `make model` augmentation); returns its ONNX export."""
    import logging

    from scorekeeper.training.mixed_precision import (
        allow_ultralytics_cpu_bf16,
        cpu_has_bf16,
        skip_amp_check,
    )
    from scorekeeper.training.train import AUGMENT, write_data_yaml
    from scorekeeper.vision.ultralytics_env import prepare

    prepare()
    import ultralytics.utils.torch_utils as tu
    from ultralytics import YOLO

    tu.NUM_THREADS = os.cpu_count() or 1
    skip_amp_check()
    allow_ultralytics_cpu_bf16()
    data = write_data_yaml(work / "deck", work / "val", work / "data.yaml")
    if (work / "other").is_dir():
        text = data.read_text().replace(
            f"train: {(work / 'deck' / 'images').resolve()}",
            f"train: [{(work / 'deck' / 'images').resolve()}, "
            f"{(work / 'other' / 'images').resolve()}]")
        data.write_text(text)
    yolo = YOLO(str(models / "cards-det.pt"))
    t0, last = time.monotonic(), [0.0]

    def progress(trainer) -> None:
        now = time.monotonic()
        if now - last[0] > 2:
            last[0] = now
            left = max(0.0, seconds - (now - t0))
            print(f"\radapting the detector: epoch {trainer.epoch + 1}  {int(left) // 60}:"
                  f"{int(left) % 60:02d} left", end="", file=out, flush=True)

    yolo.add_callback("on_train_batch_end", progress)
    logger = logging.getLogger("ultralytics")
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        yolo.train(data=str(data), imgsz=IMGSZ, epochs=100, time=seconds / 3600, batch=16,
                   workers=0, device="cpu", amp="bf16" if cpu_has_bf16() else False,
                   project=str(work.resolve()), name="runs", exist_ok=True, val=False,
                   plots=False, patience=0, deterministic=False, seed=seed, verbose=False,
                   optimizer="AdamW", lr0=DET_LR, warmup_epochs=0.2, warmup_bias_lr=0.01,
                   close_mosaic=1, **AUGMENT)
        print(file=out)
        weights = work / "runs" / "weights"
        best = weights / "best.pt" if (weights / "best.pt").is_file() else weights / "last.pt"
        onnx = Path(YOLO(str(best)).export(format="onnx", imgsz=IMGSZ, simplify=True,
                                           dynamic=True, verbose=False))
    finally:
        logger.setLevel(level)
    target = work / "cards-det.onnx"
    os.replace(onnx, target)
    return target


def train_classifier(models: Path, stored: list[np.ndarray], rows: list[dict], work: Path,
                     seconds: float, seed: int, rng: np.random.Generator, out: TextIO,
                     readable: int = 1):
    """The shipped classifier fine-tuned for `seconds`: batches of the deck's enrolled
    crops (augmented), crops of its rendered scenes (each readable corner `readable`
    times), and crops of the other designs' scenes (or of their faces); batch norm keeps
    the shipped statistics."""

    from scorekeeper.training.crops import crops_from_dataset

    labels = np.array([CLASS_OF[r["card"]] for r in rows], dtype=np.int64)
    pyrng = random.Random(seed)
    deck_x, deck_y = crops_from_dataset(work / "deck", pyrng, per_index=1, readable=readable)
    if (work / "other").is_dir():
        ox, oy = crops_from_dataset(work / "other", pyrng, per_index=1)
        other, other_y = list(ox), [int(v) for v in oy]
    else:
        raw, other_y = other_designs(SYNTHETIC, rng)
        other = [centre_crop(c) for c in raw]
    model = _trainable(models)
    every = list(range(len(rows)))
    steps = _fine_tune(
        model, lambda: _mixed_batch(stored, labels, every, deck_x, deck_y, other, other_y, rng),
        seconds, "adapting the classifier", out)
    return model, steps


def _mixed_batch(stored: list[np.ndarray], labels: np.ndarray, at: list[int],
                 deck_x: np.ndarray, deck_y: np.ndarray, other: list[np.ndarray],
                 other_y: list[int], rng: np.random.Generator):
    """A quarter enrolled crops (augmented), 3/8 the deck's scene crops, 3/8 the others'."""
    import torch

    n_enrol, n_deck = BATCH // 4, 3 * BATCH // 8
    picks = [(augment(stored[i], rng), int(labels[i])) for i in rng.choice(at, n_enrol)]
    picks += [(_relight(deck_x[i], rng), int(deck_y[i]))
              for i in rng.integers(0, len(deck_x), n_deck)]
    picks += [(_relight(other[i], rng), other_y[i])
              for i in rng.integers(0, len(other), BATCH - n_enrol - n_deck)]
    x = np.stack([c for c, _ in picks])
    k = int(rng.integers(4))
    xt = torch.from_numpy(np.ascontiguousarray(np.rot90(x[:, :, :, ::-1], k, axes=(1, 2))))
    return (xt.permute(0, 3, 1, 2).float() / 255,
            torch.tensor([y for _, y in picks], dtype=torch.int64))


def _relight(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    gain = rng.uniform(0.8, 1.2) * rng.uniform(0.95, 1.05, 3)
    return np.clip(crop.astype(np.float32) * gain + rng.uniform(-12, 12), 0, 255).astype(np.uint8)


def scene_check(models: Path, profile: DeckProfile, work: Path, files: dict[str, Path],
                photos: list[HeldPhoto] | None = None, images: list[np.ndarray] | None = None,
                whole: bool = True) -> dict:
    """Read the held-back photos and scenes with the generic model, the deck's current
    model and every mix of generic and adapted networks; `chosen` is the mix to install
    (empty: none), as `choose_mix` rules."""
    from itertools import combinations

    from scorekeeper.vision.evaluate import eval_synthetic
    from scorekeeper.vision.reader import CardReader

    photos, images = photos or [], images or []
    scenes = work / "check"
    results = {"generic": eval_synthetic(CardReader(models), scenes)}
    if profile.detector_path is not None or profile.classifier_path is not None:
        current = CardReader(models, deck=profile)
        if current.deck is not None:
            results["current"] = eval_synthetic(current, scenes)
    rivals = photo_rivals(models, profile, photos, images) if photos else {}
    mixes: dict[tuple[str, ...], dict] = {}
    reads: dict[tuple[str, ...], Reads] = {}
    for n in range(len(files), 0, -1):
        for mix in combinations(sorted(files), n):
            candidate = DeckProfile(profile.name, work, {k: {"onnx": files[k].name}
                                                         for k in mix})
            reader = CardReader(models, deck=candidate)
            if reader.warnings:  # an adapted network that does not load is no candidate
                continue
            mixes[mix] = eval_synthetic(reader, scenes)
            if photos:
                reads[mix] = read_photos(reader, photos, images)
    scene_keys = {k: (v["correct"], -v["false"]) for k, v in results.items()}
    best = max(scene_keys, key=lambda k: scene_keys[k])
    chosen = choose_mix({m: (r["correct"], r["false"]) for m, r in mixes.items()},
                        (results[best]["correct"], results[best]["false"]), reads, rivals,
                        whole)
    top = mixes[chosen] if chosen else max(mixes.values(), key=lambda r: (r["correct"],
                                                                           -r["false"]),
                                           default=results["generic"])
    labelled = max(1, results["generic"]["labelled"])
    out = {"held_back": results["generic"]["labelled"], "unit": "cards in held-back scenes",
           "generic": results["generic"]["correct"] / labelled,
           "generic_false": results["generic"]["false"],
           "adapted": top["correct"] / labelled, "adapted_false": top["false"],
           "mixes": {"+".join(m): [r["correct"], r["false"]] for m, r in mixes.items()},
           "best": best, "best_correct": results[best]["correct"],
           "best_false": results[best]["false"], "chosen": list(chosen)}
    if photos:
        out["photos"] = {"photos": len(photos), "cards": rivals["generic"].cards,
                         "whole": whole,
                         **{k: _figures(v) for k, v in rivals.items()},
                         "mixes": {"+".join(m): _figures(r) for m, r in reads.items()},
                         **({"adapted": _figures(reads[chosen])} if chosen else {})}
    return out


def choose_mix(scenes: dict[tuple[str, ...], tuple[int, int]], best_scenes: tuple[int, int],
               reads: dict[tuple[str, ...], Reads], rivals: dict[str, Reads],
               whole: bool) -> tuple[str, ...]:
    """The mix of adapted networks to install, or (): `scenes` holds each mix's (exact,
    false) on the rendered held-back scenes, `best_scenes` the best rival's; `reads` each
    mix's reading of the held-back photos, `rivals` the generic and current models' (both
    empty when the deck keeps no photos). A mix must read the photos no worse than every
    rival on either count, and read the photos better than the best rival or the scenes
    (more exact, no more false); the best such mix on the photos, then the scenes, wins.
    A detector also needs photos held back `whole`: measured, deck-a2's detector read its
    two enrolment photos as well as the generic one (both trained the classifier) and the
    game tables with 21 cards read twice; a held-back photo of 5 showed it (docs/decks.md)."""
    best_photos = max(rivals.values(), key=Reads.key, default=None)

    def allowed(mix: tuple[str, ...]) -> bool:
        if "detector" in mix and not (rivals and whole):
            return False
        return not rivals or (mix in reads and refusal(reads[mix], rivals) is None)

    def gains(mix: tuple[str, ...]) -> bool:
        exact, false = scenes[mix]
        on_scenes = exact > best_scenes[0] and false <= best_scenes[1]
        return on_scenes or (best_photos is not None and reads[mix].key() > best_photos.key())

    ok = [m for m in scenes if allowed(m) and gains(m)]
    return max(ok, key=lambda m: (reads[m].key() if m in reads else (0, 0),
                                  scenes[m][0], -scenes[m][1]), default=())


# ---- rendered enrolment photos (tests and the figures in docs/decks.md) ----------------

def render_enrolment(deck, number: int, seed: int = 0, mat: str = "A4",
                     frame: tuple[int, int] = (1600, 1200), swap: tuple[str, str] | None = None,
                     leave_out: tuple[str, ...] = (), stranger=None, blur: float = 0.8,
                     px_per_mm: float = 5.0) -> np.ndarray:
    """A photo of sheet `sheet_of(number)` laid out with `deck` (a synth Deck) on the mat,
    placed by hand (a little off and askew) and photographed at an angle. Slips for the
    tests: `swap` two cards, `leave_out` some ("JK1", "JK2": one row's joker, "JK": both),
    `stranger` (another Deck) for one card."""
    from scorekeeper.calibration.drawing import render
    from scorekeeper.calibration.mat import mat_page
    from scorekeeper.calibration.synth import cluttered_background, photograph, random_view
    from scorekeeper.decks.enrol import CARD_MM, sheet_of, slots

    rng = np.random.default_rng([seed, number])
    gray = render(mat_page(mat), px_per_mm * 25.4)  # type: ignore[arg-type]
    top: np.ndarray = np.repeat(gray[:, :, None], 3, axis=2).astype(np.float32)
    places = {s.card if s.card != "JK" else f"JK{s.row + 1}": s
              for s in slots(sheet_of(number), mat)}
    if swap is not None:
        a, b = places[swap[0]], places[swap[1]]
        places[swap[0]], places[swap[1]] = b, a
    order = sorted(places.items(), key=lambda kv: (kv[1].row, kv[1].column))
    # each place's hand (turn, then offset) drawn for every place, so a card left out leaves
    # the rest of the photo as it was
    hands = [(rng.uniform(-2.5, 2.5), rng.uniform(-1.5, 1.5, 2)) for _ in order]
    for (key, slot), (angle, off) in zip(order, hands, strict=True):
        code = "JK" if key.startswith("JK") else key
        if code in leave_out or key in leave_out or (code == "JK" and sheet_of(number) == 2):
            continue
        source = stranger if stranger is not None and code == "7" + code[-1:] and \
            slot.column == 6 and slot.row == 0 else deck
        faces = source.by_card.get(code)
        if not faces:
            continue
        face = faces[0].image
        w = round(CARD_MM[0] * px_per_mm)
        h = round(w * face.shape[0] / face.shape[1])
        img = cv2.resize(face, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
        x, y = (np.array(slot.origin_mm) + off) * px_per_mm
        m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
        m[:, 2] += (x, y)
        size = (top.shape[1], top.shape[0])
        warped = cv2.warpAffine(img, m, size, flags=cv2.INTER_LINEAR)
        alpha = warped[:, :, 3:4] / 255
        shadow = cv2.GaussianBlur(alpha, (0, 0), 3)[..., None] * 0.25
        top = top * (1 - shadow) * (1 - alpha) + warped[:, :, :3] * alpha
    to_frame = random_view(rng, mat_size_mm(mat), frame, fill=0.92, tilt=0.08)
    background = cluttered_background(rng, frame)
    return photograph(np.clip(top, 0, 255).astype(np.uint8), px_per_mm, to_frame, background,
                      rng, noise=4.0, blur=blur)


def mat_size_mm(mat: str) -> tuple[float, float]:
    from scorekeeper.decks.enrol import mat_size

    return mat_size(mat)
