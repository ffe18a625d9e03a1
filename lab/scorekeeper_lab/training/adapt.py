"""`scorekeeper deck adapt`: fine-tune the shipped index classifier on one deck's examples.

A table's deck is a handful of crops; the shipped classifier has seen ~60 000 of 34
designs. So the network starts from the shipped weights and trains, for a fixed time, on
batches that are half the deck's crops (shifted, scaled, turned, blurred, relit and partly
covered: what a meld row or a fan does to an index) and half crops of the other designs
and of print that is no index, so it keeps reading them. A card of the deck with no crop to
learn from (held back for the check, or never boxed) is composed from the deck's own glyphs,
its rank from a card of its rank and its pip from a card of its suit (`composed`): without
them the network learns the deck's "7" on the 7♠ it saw and not on the 7♥ it did not.

The install check: a fifth of the deck's photos is held back whole (training never sees
their crops) and read with the full reader (detector, classifier, pairing) by the generic
model, the deck's current one and the candidate; a candidate that reads fewer of their
cards exactly, or more false cards, than either is refused, however well it reads crops
(measured: a detector adapted from rendered scenes passed a check on rendered scenes and
then read 21 cards twice on game tables). It must also show a gain: more cards, or fewer
false ones, on those photos, or more held-back crops read right under augmentation and
under other cards of the deck laid over them as a tight fan lays them (the hard cases
adapting is for). Where no photo can be spared (2 enrolment photos are the two
halves of the deck), a fifth of the physical cards is held back and the check reads every
kept photo, exactness counted on the held-back cards, false cards everywhere. A card a
photo shows without a box (added by hand to a confirmed scan) is never trained on: the
check counts it, and a read card on no labelled card that names it is that card, read
exactly (`match_cards`).

The check lives in `adapt_check` (what is held back, how each model reads it), the
camera's look the batches and the check share in `looks`, the fan's in `covered`.
`adapt_scenes.adapt_deck_scenes` (`deck adapt --scenes`, experimental) learns the deck where
its cards are lost instead: scenes rendered from its enrolled indices (`synth/enrolled.py`) and of
other designs, the detector and classifier fine-tuned on them, the held-back photos and
scenes read by every mix of generic and adapted networks (`choose_mix`). Its detector has
read whole photos worse each time it was measured (docs/decks.md, Figures).
"""

from __future__ import annotations

import math
import os
import shutil
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import cv2
import numpy as np

from scorekeeper.decks.examples import centre_crop, cut, kept_photos, load_crops
from scorekeeper.decks.profile import DeckError, DeckProfile
from scorekeeper.vision.classes import CLASSIFIER_CLASSES
from scorekeeper_lab.training.adapt_check import (
    CLASS_OF,
    Reads,
    candidate_reads,
    crop_check,
    figures,
    generic_second,
    held_photos,
    load_photos,
    photo_rivals,
    photos_line,
    photos_note,
    reader_threshold,
    refusal,
    split_examples,
)
from scorekeeper_lab.training.composed import composed_crops, split_deck
from scorekeeper_lab.training.covered import slide_over
from scorekeeper_lab.training.looks import augment

MIN_EXAMPLES = 8
BATCH = 64
PEAK_LR = 1e-3
# what a deck whose photos cannot be held back needs: its gain is in cards seen again
SECOND_LOOK = ("What adapting gains is in the cards it trained on, seen again, which cards "
               "held back cannot show: another photo of the same cards (`deck add`, or "
               "confirmed scans of games played with the deck) lets the check hold one "
               "photo back whole")
SYNTHETIC = 3000  # crops of the other designs made for one run
# share of the deck's index crops trained covered by another of its cards (a fan's look;
# `training.covered`)
COVERED = 0.4
# composed crops of each card the deck has none of to train on (`training.composed`), drawn
# together as often as one crop of a card it has
COMPOSED = 16


class Cancelled(Exception):
    """Ctrl-C (or the caller) stopped the run; nothing was installed."""


Box = tuple[float, float, float, float]


# Progress as data, for whoever runs the adaptation (the server's "Improve this deck"):
# {"event": "counts", "learn": N, "check": N, "others": N}, {"event": "phase", "phase":
# "adapting" | "checking", "progress": 0..1, "left_s": S}; the text on `out` is for people.
Report = Callable[[dict[str, Any]], None]


def no_report(_: dict[str, Any]) -> None:
    """Nobody asked for progress as data."""


@dataclass
class Outcome:
    installed: bool
    check: dict
    seconds: float
    steps: int
    message: str


# ---- crops of the other designs ------------------------------------------------------

def other_designs(count: int, rng: np.random.Generator, cards_dir: Path | None = None
                  ) -> tuple[list[np.ndarray], list[int]]:
    """Stored-format crops of the training designs' indices (and of their card middles,
    as `none`), so the adapted model does not forget them. Falls back to the drawn deck
    when the art is not installed (a Pi, CI)."""
    from scorekeeper_lab.training.synth.deckset import cache_ready, load_decks
    from scorekeeper_lab.training.synth.fallback import fallback_deck

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

    from scorekeeper_lab.training.classifier_train import build_model, recorded_width

    pt = models / "cards-cls.pt"
    if not pt.is_file():
        raise DeckError(f"adapting needs the generic classifier's weights {pt} "
                        "(they ship in models/)")
    model = build_model(recorded_width(models))
    model.load_state_dict(torch.load(pt, map_location="cpu"))
    return model.eval()


def adapt_deck(profile: DeckProfile, models: Path, minutes: float = 5.0, seed: int = 0,
               cards_dir: Path | None = None, out: TextIO | None = None,
               report: Report = no_report) -> Outcome:
    """Train for `minutes`, check on the held-back photos and crops, install only a model
    that reads them no worse and shows a gain (module docstring). Ctrl-C raises Cancelled
    after cleaning up; the profile is then as it was. `out` (progress for people) is
    standard error as it is at the call; `report` takes the same progress as data."""
    import torch

    out = out or sys.stderr

    start = time.monotonic()
    stored, rows = load_crops(profile)
    if sum(r["card"] != "none" for r in rows) < MIN_EXAMPLES:
        raise DeckError(f"deck {profile.name!r} has {len(rows)} examples; add labelled photos "
                        f"(`deck add`, `deck enrol`) first: at least {MIN_EXAMPLES} indices")
    labels = np.array([CLASS_OF[r["card"]] for r in rows], dtype=np.int64)
    split = split_examples(rows, kept_photos(profile, rows), seed)
    photos, images = load_photos(held_photos(profile, rows, split))
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "0")) or os.cpu_count() or 1)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    print(f"deck {profile.name}: {len(split.train)} crops to learn from, {len(split.back)} "
          f"held back to check{photos_note(split, photos)}; making {SYNTHETIC} crops of "
          "the other designs", file=out)
    report({"event": "counts", "learn": len(split.train), "check": len(split.back),
            "others": SYNTHETIC})
    other, other_y = other_designs(SYNTHETIC, rng, cards_dir)
    generic = _load_generic(models)
    model = trainable(models)
    boxes: list[Box] = [tuple(r["box"]) for r in rows]
    pool = Pool(list(stored), labels, list(split.train), boxes)
    made = pool.compose(rows, generic, rng)
    print(f"composed {made[0]} crops of {made[1]} cards it has no crop of to learn from "
          "(their rank and suit cut from its other cards)", file=out)
    budget = max(10.0, minutes * 60 - (time.monotonic() - start) - 5 - 3 * len(photos))
    tmp = profile.folder / ".adapt-cls" / "cards-cls.onnx"
    try:
        steps = fine_tune(
            model, lambda: _batch(pool.stored, pool.labels, pool.train_at, other, other_y,
                                  rng, pool.boxes, pool.weights), budget,
            f"adapting {profile.name}", out, report)
        report({"event": "phase", "phase": "checking"})
        print(f"checking on {len(split.back)} held-back crops and {len(photos)} whole "
              "photos", file=out)
        second = generic_second(models)  # the adapted classifier reads beside it
        check = crop_check(generic, model, profile, stored, labels, split.back,
                           reader_threshold(models), boxes, second)
        mine_crops, best_crops = check.pop("adapted_key"), check.pop("best_key")
        # a tie is no evidence: more held-back crops read right, and no more falsely
        gain = mine_crops[0] > best_crops[0] and mine_crops[1] >= best_crops[1]
        from scorekeeper_lab.training.classifier_train import export_onnx

        tmp.parent.mkdir(exist_ok=True)
        export_onnx(model.eval(), tmp)
        why = None
        if photos:
            rivals = photo_rivals(models, profile, photos, images)
            mine = candidate_reads(models, profile, {"classifier": tmp}, photos, images,
                                   second.digest if second else None)
            why = "the adapted classifier does not load" if mine is None \
                else refusal(mine, rivals)
            check["photos"] = {"photos": len(photos), "whole": split.whole,
                               "cards": rivals["generic"].cards,
                               **{k: figures(v) for k, v in rivals.items()},
                               **({"adapted": figures(mine)} if mine else {})}
            best = max(rivals.values(), key=Reads.key)
            gain = gain or (mine is not None and mine.key() > best.key())
        check.update(steps=steps, minutes=round((time.monotonic() - start) / 60, 2),
                     examples=len(rows), composed=made[0], composed_cards=made[1])
        if why is None and not gain:
            why = (f"no gain: it read {check['adapted']:.1%} of the {check['held_back']} "
                   f"held-back crops (clean, augmented and in fans; {check['adapted_false']} "
                   f"false), the {check['best']} model {check['best_accuracy']:.1%} "
                   f"({check['best_false']} false)"
                   + (", and the held-back photos no better" if photos else "")
                   + ("" if split.whole else f". {SECOND_LOOK}"))
        if why is not None:
            return Outcome(False, check, time.monotonic() - start, steps,
                           f"not installed: {why}{photos_line(check)}")
        # with the generic detector, and the generic second beside it as checked
        profile.install_models({"classifier": tmp}, check, second.digest if second else None)
    except KeyboardInterrupt:
        raise Cancelled(f"cancelled: deck {profile.name!r} keeps its model") from None
    finally:
        shutil.rmtree(tmp.parent, ignore_errors=True)
    return Outcome(True, check, time.monotonic() - start, steps,
                   f"installed: held-back crops {check['generic']:.1%} (generic) → "
                   f"{check['adapted']:.1%} (adapted){photos_line(check)}")


def trainable(models: Path):  # -> torch.nn.Module
    """The shipped classifier, ready to fine-tune: batch norm keeps the shipped statistics,
    which a few hundred crops of one deck would skew."""
    from torch import nn

    model = _load_generic(models).train()
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.eval()
    return model


def fine_tune(model, next_batch: Callable[[], tuple], seconds: float, what: str,
               out: TextIO, report: Report = no_report) -> int:
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
            report({"event": "phase", "phase": "adapting", "progress": round(frac, 3),
                    "left_s": round(left)})
    print(file=out)
    return steps


def _batch(stored: list[np.ndarray], labels: np.ndarray, train_at: list[int],
           other: list[np.ndarray], other_y: list[int], rng: np.random.Generator,
           boxes: list[Box] | None = None, weights: np.ndarray | None = None):
    """Half the deck's crops (drawn by `weights`, one a position of `train_at`; None:
    evenly), half the other designs', each augmented afresh; given the crops' `boxes`,
    `COVERED` of the deck's indices with another of its cards slid over them as a fan lays
    it (`training.covered`)."""
    import torch

    n_deck = BATCH // 2
    picks = [(_covered(stored, labels, train_at, boxes, i, rng), int(labels[i]))
             for i in rng.choice(train_at, n_deck, p=weights)]
    picks += [(other[i], other_y[i]) for i in rng.integers(0, len(other), BATCH - n_deck)]
    x = np.stack([augment(c, rng) for c, _ in picks])
    k = int(rng.integers(4))
    xt = torch.from_numpy(np.ascontiguousarray(np.rot90(x[:, :, :, ::-1], k, axes=(1, 2))))
    return (xt.permute(0, 3, 1, 2).float() / 255,
            torch.tensor([y for _, y in picks], dtype=torch.int64))


@dataclass
class Pool:
    """The deck's crops to learn from: its stored crops, labels and boxes, the positions
    trained on, and (once `compose`d) the composed crops of the cards it has none of, with
    the weights that draw each composed card as often as one crop of a card it has."""

    stored: list[np.ndarray]
    labels: np.ndarray
    train_at: list[int]
    boxes: list[Box]
    weights: np.ndarray | None = None

    def compose(self, rows: list[dict], generic, rng: np.random.Generator) -> tuple[int, int]:
        """Add `COMPOSED` crops of each standard card no trained crop shows, from the
        trained crops' glyphs (`training.composed`). A composed crop the `generic`
        classifier reads surely as one of its two donors' cards (the pip not laid, or laid
        where no index is) is dropped. (crops, cards) added."""
        from scorekeeper.rules.cards import full_deck
        from scorekeeper_lab.training.adapt_check import probabilities

        none = CLASS_OF["none"]
        seen = {rows[i]["card"] for i in self.train_at}
        at = [i for i in self.train_at if self.labels[i] != none]
        glyphs = split_deck([self.stored[i] for i in at], [rows[i]["card"] for i in at],
                            [self.boxes[i] for i in at])
        wanted = [str(c) for c in full_deck() if str(c) not in seen]
        made = composed_crops(glyphs, wanted, COMPOSED, rng)
        if made:
            p = probabilities(generic, np.stack([centre_crop(m.crop) for m in made]))
            made = [m for m, q in zip(made, p, strict=True)
                    if not (q.max() >= 0.5 and CLASSIFIER_CLASSES[int(q.argmax())]
                            in (m.rank_from, m.pip_from))]
        weights = [1.0] * len(self.train_at)
        per_card = Counter(m.card for m in made)
        for m in made:
            self.train_at.append(len(self.stored))
            self.stored.append(m.crop)
            self.boxes.append(m.box)
            weights.append(1.0 / per_card[m.card])
        self.labels = np.concatenate([self.labels, np.array(
            [CLASS_OF[m.card] for m in made], dtype=np.int64)])
        w = np.array(weights)
        self.weights = w / w.sum()
        return len(made), len(per_card)


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
