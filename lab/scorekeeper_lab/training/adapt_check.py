"""`deck adapt`'s install check: what is held back from training, and how the generic
model, the deck's current one and the candidate read it (module docstring of
`training.adapt`). Both runs, crops (`adapt_deck`) and scenes (`adapt_scenes`), use it."""

from __future__ import annotations

import contextlib
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scorekeeper.decks.examples import centre_crop, unboxed_cards
from scorekeeper.decks.profile import DeckProfile
from scorekeeper.files import file_digest
from scorekeeper.vision.classes import CLASSIFIER_CLASSES
from scorekeeper.vision.classifier import answers, first_doubts, second_counts
from scorekeeper.vision.manifest import load_manifest
from scorekeeper_lab.training.covered import slide_over
from scorekeeper_lab.training.looks import augment

CLASS_OF = {c: i for i, c in enumerate(CLASSIFIER_CLASSES)}
HOLD_BACK = 0.2  # share of the deck's physical cards kept out of training, for the check
CHECK_LOOKS = 8  # each held-back crop is also checked under this many augmentations
CHECK_FAN_LOOKS = 8  # and each held-back index under this many fans of the deck's cards
MOST_SHOWN = 0.75  # a photo whose cards the others show this share of may be held back whole

Box = tuple[float, float, float, float]


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
    # with `whole`: the cards whose exactness counts, those the photos that stay show (None:
    # all; see split_examples)
    counted: frozenset[str] | None = None


def split_examples(rows: list[dict], kept: set[str], seed: int) -> Split:
    """Hold back a fifth of the kept photos whole (at least one), each only when the photos
    that stay hold every card it shows, so training still sees the whole deck. Failing
    that, one photo is held back whole when the others show `MOST_SHOWN` of its cards, and
    the check counts exactness on those: a deck's gain is in the cards it was trained on,
    seen again (measured: docs/decks.md), which held-back cards cannot show. Two whole-deck
    photos in tight fans are so (a fan hides a card or two of each); the two halves of a
    mat enrolment are not. When no photo can be spared, a fifth of the physical cards is
    held back (`split_groups`) and the check reads every kept photo, counting exactness on
    the held-back cards only."""
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
    counted = None
    if not held and len(photos) > 1:
        def shown_elsewhere(p: str) -> set[str]:
            return cards[p] & set().union(*(c for q, c in cards.items() if q != p))

        best = max(photos, key=lambda p: len(shown_elsewhere(p)) / len(cards[p]))
        if len(shown_elsewhere(best)) >= MOST_SHOWN * len(cards[best]):
            held, counted = [best], frozenset(shown_elsewhere(best))
    if held:
        train = [i for i, r in enumerate(rows) if r.get("photo") not in held]
        back = [i for i, r in enumerate(rows) if r.get("photo") in held]
        return Split(train, back, sorted(held), True, counted)
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
                             [(c, b, g in back if not split.whole
                               else split.counted is None or c in split.counted)
                              for g, (c, b) in groups.items()],
                             tuple(unboxed_cards(rows, name))))
    return out


def match_cards(read: list, truth: list[tuple[str, list[Box], bool]],
                unboxed: tuple[str, ...] | list[str] = (),
                ignore: list[tuple[str, list[Box]]] | tuple[()] = ()) -> tuple[int, int]:
    """(exact, false) of one photo, matched as `scorekeeper-lab eval` matches
    (`evaluate.match_reads`): a read card on a labelled card naming another, or on one
    already taken, or on none (unless it is one of the photo's `unboxed` cards, or an
    `ignore` index it names), is false.
    Exact cards are counted only where `truth` says so; an unboxed card read always is."""
    from scorekeeper_lab.evaluation.evaluate import match_reads

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
                    photos: list[HeldPhoto], images: list[np.ndarray],
                    second: str | None = None) -> Reads | None:
    """The held-back photos read with the generic networks replaced by `files` ("detector",
    "classifier": ONNX files in one folder), the generic second classifier of digest
    `second` beside the classifier; None when one of them does not load."""
    from scorekeeper.vision.reader import CardReader

    folder = {f.parent for f in files.values()}.pop()
    manifest: dict = {k: {"onnx": f.name} for k, f in files.items()}
    if second is not None and "classifier" in manifest:
        manifest["classifier"]["second"] = second
    candidate = DeckProfile(profile.name, folder, manifest)
    reader = CardReader(models, deck=candidate)
    return None if reader.warnings else read_photos(reader, photos, images)


def load_photos(photos: list[HeldPhoto]) -> tuple[list[HeldPhoto], list[np.ndarray]]:
    """The photos that can be read (a file lost since is skipped) and their images."""
    pairs = [(p, cv2.imread(str(p.path), cv2.IMREAD_COLOR)) for p in photos]
    kept = [(p, i) for p, i in pairs if i is not None]
    return [p for p, _ in kept], [i for _, i in kept]


def figures(r: Reads) -> list[int]:
    return [r.exact, r.false]


# ---- the check on held-back crops ----------------------------------------------------

def probabilities(model, crops: np.ndarray) -> np.ndarray:
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


def fan_looks(stored: list[np.ndarray], labels: np.ndarray, back_at: list[int],
              boxes: list[Box], rng: np.random.Generator) -> list[tuple[np.ndarray, int]]:
    """Each held-back index `CHECK_FAN_LOOKS` times under other cards of the deck as a
    tight fan lays them (`training.covered`), then as a camera might see it (`augment`):
    the deck in fans is what adapting learns, so the check asks for it on cards it never
    trained on. The neighbours may be any of the deck's cards: only the card under them
    is read."""
    none = CLASS_OF["none"]
    cards = [j for j in range(len(stored)) if labels[j] != none]
    out = []
    for i in back_at:
        others = [j for j in cards if j != i]
        if labels[i] == none or not others:
            continue
        for _ in range(CHECK_FAN_LOOKS):
            picks = rng.choice(len(others), min(2, len(others)), replace=False)
            over = [(stored[others[k]], boxes[others[k]]) for k in picks]
            out.append((augment(slide_over(stored[i], boxes[i], over, rng), rng),
                        int(labels[i])))
    return out


@dataclass(frozen=True)
class Second:
    """The generic second classifier as the reader asks it (`CardReader._second_look`):
    about the crops the first answers `none` or under the card threshold, counted where
    it answers a card at `min_prob` or more."""

    classifier: Any  # IndexClassifier
    min_prob: float
    digest: str

    def beside(self, p: np.ndarray, crops: np.ndarray, min_prob: float) -> np.ndarray:
        """`p` (the first's answers) with the second's where the reader would take it:
        the reader's own rule (`first_doubts`, `second_counts`), on whole rows, which the
        check scores."""
        doubted = np.array([i for i, a in enumerate(answers(p)) if first_doubts(a, min_prob)],
                           dtype=np.int64)
        if not len(doubted):
            return p
        q = self.classifier.probabilities([crops[i] for i in doubted])
        take = np.array([second_counts(a, self.min_prob) for a in answers(q)], dtype=bool)
        out = p.copy()
        out[doubted[take]] = q[take]
        return out


def generic_second(models: Path) -> Second | None:
    """The models' second classifier, or None when they name none or it does not load (the
    generic reader then reads without it, and so does the check)."""
    from scorekeeper.vision.classifier import IndexClassifier

    classifier_spec = load_manifest(models).classifier
    second = classifier_spec.second if classifier_spec else None
    if second is None:
        return None
    digest = file_digest(models / second.onnx)
    try:
        classifier = IndexClassifier(models / second.onnx)
    except Exception:  # noqa: BLE001 - onnxruntime's own error types: unusable, as the reader
        return None
    return None if digest is None else Second(classifier, second.min_prob, digest)


def reader_threshold(models: Path) -> float:
    """The reader's card threshold for these networks, which the check holds every
    candidate to."""
    return load_manifest(models).min_prob


def crop_check(generic, model, profile: DeckProfile, stored: list[np.ndarray], labels: np.ndarray,
           back_at: list[int], min_prob: float, boxes: list[Box] | None = None,
           second: Second | None = None) -> dict:
    """Held-back figures of the generic, the deck's current and the adapted model, each
    with the generic `second` beside it where the reader would read so (the adapted one:
    installed with it; the current one: where its own check read a second beside it,
    `DeckProfile.pairs_second`)."""
    # the held-back crops as photographed, and as a table's camera might see them: the
    # hard cases are what adapting is for, so the check must contain them; with `boxes`,
    # that includes each held-back index in a tight fan (`fan_looks`)
    rng = np.random.default_rng(1)
    looks = [centre_crop(stored[i]) for i in back_at]
    looks += [augment(stored[i], rng) for i in back_at for _ in range(CHECK_LOOKS)]
    fanned = fan_looks(stored, labels, back_at, boxes, rng) if boxes else []
    crops = np.stack(looks + [c for c, _ in fanned])
    truth = np.concatenate([labels[back_at], np.repeat(labels[back_at], CHECK_LOOKS),
                            np.array([y for _, y in fanned], dtype=np.int64)])
    def read(p: np.ndarray, paired: bool = True) -> dict:
        return score(second.beside(p, crops, min_prob) if second and paired else p, truth,
                     min_prob)

    results = {"generic": read(probabilities(generic, crops)),
               "adapted": read(probabilities(model, crops))}
    current = profile.classifier_path
    if current is not None and current.is_file():
        from scorekeeper.vision.classifier import IndexClassifier

        # an unreadable current model is no rival (onnxruntime has its own error types)
        with contextlib.suppress(Exception):
            results["current"] = read(IndexClassifier(current).probabilities(list(crops)),
                                      profile.pairs_second)
    rivals = {k: v for k, v in results.items() if k != "adapted"}
    # a tie is no evidence: the new model must read more held-back crops right, and not
    # answer more of them falsely (measured: a tie decided on the mean probability of the
    # truth installed a model that read the held-out deck with 8 more false cards)
    best = max(rivals, key=lambda k: (rivals[k]["accuracy"], -rivals[k]["false"]))
    a = results["adapted"]
    return {"held_back": len(back_at), "looks": len(crops), "fan_looks": len(fanned),
            "generic": results["generic"]["accuracy"],
            "adapted": a["accuracy"], "adapted_false": a["false"],
            "generic_false": results["generic"]["false"], "best": best,
            "best_accuracy": rivals[best]["accuracy"], "best_false": rivals[best]["false"],
            "adapted_key": (a["accuracy"], -a["false"]),
            "best_key": (rivals[best]["accuracy"], -rivals[best]["false"])}


# ---- what the check says ------------------------------------------------------------

def photos_note(split: Split, photos: list[HeldPhoto]) -> str:
    if not photos:
        return " (no whole photos kept: enrolled before they were)"
    if split.whole and split.counted is not None:
        return (f", 1 whole photo held back (exactness counted on the {len(split.counted)} "
                "of its cards the other photos show)")
    if split.whole:
        return f", {len(photos)} whole photos held back"
    return f", reading all {len(photos)} photos (too few to hold one back)"


def photos_line(check: dict) -> str:
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
