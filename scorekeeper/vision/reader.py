"""A frame → the cards in it, each with a confidence and a box in the frame's pixels."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from scorekeeper.registry import RegistryError
from scorekeeper.vision.classes import (
    CARD,
    CLASSIFIER_CLASSES,
    DETECTOR_CLASSES,
    INDEX,
    names_cards,
)
from scorekeeper.vision.classifier import (
    CROP,
    Answer,
    IndexClassifier,
    crop_index,
    first_doubts,
    offered,
    second_counts,
)
from scorekeeper.vision.confidence import Calibration
from scorekeeper.vision.detectors import config_for, create_detector
from scorekeeper.vision.detectors.base import Detection, Detector
from scorekeeper.vision.detectors.ncnn import NcnnConfig
from scorekeeper.vision.detectors.onnx import OnnxConfig
from scorekeeper.vision.detectors.pytorch import TorchConfig
from scorekeeper.vision.fan_gaps import stripe_gaps
from scorekeeper.vision.hand_look import NEVER, HandLook, HandLookConfig
from scorekeeper.vision.hand_scale import rescaled_boxes
from scorekeeper.vision.manifest import DetectorSpec, ManifestError, load_manifest
from scorekeeper.vision.pairing import (
    Box,
    IndexReading,
    PhysicalCard,
    pair_indices,
    point_in_box,
)
from scorekeeper.vision.refocus import (
    COARSE_SIDE,
    MIN_GAIN,
    refocus_scale,
)
from scorekeeper.vision.unread import Unread, unread_cards, unread_indices

if TYPE_CHECKING:
    from scorekeeper.decks.profile import DeckProfile

MODELS = Path(__file__).resolve().parents[2] / "models"
# What a reader can be traced at (`CardReader.add_callback`): the frame's detections, and
# the indices the hand detector added in its hands.
TRACE_EVENTS = ("on_detect", "on_hand_look")
Trace = Callable[[list["Detection"]], None]
# An answer from this up to the card threshold is offered to the players as a card that may
# be there (`ReadResult.maybe`), never counted; the lab's record (lab/RECORD.md) says how many of
# the misses it offers named right, and how many it offers in all.
MAYBE_PROB = 0.3


class VisionError(RuntimeError):
    """The model files are missing or unreadable, or an image cannot be read."""


@dataclass(frozen=True)
class ReadResult:
    cards: list[PhysicalCard]
    ms: float
    looks: int = 1  # more when the frame was read again rescaled (vision/refocus.py)
    # indices read under the card threshold (from `MAYBE_PROB`), where no card was read:
    # what the players may add with a tap
    maybe: list[PhysicalCard] = field(default_factory=list)
    # the probability from which a card is shown sure (the reader's calibration line);
    # None where no reader said one: the review's legend then names no figure
    sure_line: float | None = None
    # cards seen (their whole-card box) where nothing was read or offered: the review asks
    # the players for them (`unread.unread_cards`)
    unread: list[Unread] = field(default_factory=list)

    def to_json(self) -> list[dict[str, Any]]:
        return cards_json(self.cards)


def shown(card: PhysicalCard) -> float:
    """The confidence the players see: the calibrated probability, the raw figure where
    no reader set one."""
    return card.probability if card.probability is not None else card.confidence


def is_sure(card: PhysicalCard) -> bool:
    """Whether the review shows `card` sure: the reader's word (`Calibration.card`); a card
    no reader judged is shown unsure, the safe reading, never sure by a threshold of its own."""
    return card.sure is True


def cards_json(cards: list[PhysicalCard]) -> list[dict[str, Any]]:
    """Each card as the scan API and `read --json` give it: `confidence` the calibrated
    probability, `sure` whether the review shows it sure."""
    return [{"card": c.card, "confidence": round(shown(c), 3), "sure": is_sure(c),
             "box": [round(v, 1) for v in c.box]} for c in cards]


def _maybe(doubtful: list[IndexReading], cards: list[Detection],
           found: list[PhysicalCard]) -> list[PhysicalCard]:
    """Cards of doubtful readings whose indices lie on no index a card was read from (the
    same index looked at twice is no second card)."""
    taken = [r.det.box for c in found for r in c.indices]
    free = [r for r in doubtful if not any(point_in_box(r.det.centre, b) for b in taken)]
    return pair_indices(free, cards) if free else []


class CardReader:
    """Detector + index classifier + corner pairing, configured by models/model.json.

    A corner the classifiers turn down in a hand or a row is looked at again at its
    neighbours' index size (`hand_scale`), and the place where a fan's stripe of indices
    skips one is read too (`fan_gaps`). A model.json that names a hand detector
    (`detector.hand`) has it look over each hand of a photo (not of a fixed camera's frame:
    it costs up to 170 ms a table frame) for the corners the first look missed or, where it
    names the cards, the classifiers turned down (`hand_look`).

    `deck`: a deck profile whose adapted networks read instead of the generic ones: its
    detector (ONNX; under another runtime the generic detector finds the cards) and its
    classifier, each where the deck has one; the generic second classifier stays beside
    the deck's classifier where the deck's install check read a second beside it, the
    same file or a later release's (`DeckProfile.pairs_second`). A deck network that cannot
    be loaded is not fatal: the generic one reads, and `warnings` says so. With no deck,
    nothing here differs from the generic model.
    """

    def __init__(self, models: Path = MODELS, runtime: str | None = None,
                 deck: DeckProfile | None = None) -> None:
        try:
            manifest = load_manifest(models)
        except ManifestError as exc:
            raise VisionError(str(exc)) from exc
        runtime = runtime or manifest.runtime
        det = manifest.detector
        try:
            config = config_for(runtime, det, models)
        except RegistryError as exc:
            raise VisionError(str(exc)) from exc
        except LookupError as exc:
            raise VisionError(f"{manifest.path}: {exc}") from exc
        self.names = det.names
        if self.names != DETECTOR_CLASSES and not names_cards(self.names):
            raise VisionError(f"{manifest.path}: detector classes {list(self.names)[:4]}... "
                              "are neither index and card nor the cards and card")
        self.two_stage = self.names == tuple(DETECTOR_CLASSES)
        cls = manifest.classifier
        if self.two_stage and cls is None:
            raise VisionError(f"{manifest.path}: an index detector needs a classifier")
        # a detector whose classes are the cards keeps one name an index (one NMS for all)
        config = config.model_copy(
            update={"agnostic": names_cards(self.names)})
        self.card_cls = self.names.index("card")
        self.warnings: list[str] = []
        self.deck: str | None = None
        detector = None
        if deck is not None and deck.detector_path is not None:
            detector = self._deck_detector(deck, deck.detector_path, config, runtime)
        self.detector = detector or create_detector(config, self.names)
        self.classifier = None
        # a second classifier, taught covered corners, reads what the first turns down; a
        # deck's own classifier keeps it beside it where the deck's install check read a
        # second beside it (else the deck reads as it was checked: alone)
        self.second: IndexClassifier | None = None
        self.second_min_prob = 1.0
        if self.two_stage and cls is not None:
            if deck is not None and deck.classifier_path is not None:
                self.classifier = self._deck_classifier(deck, deck.classifier_path, cls.turns,
                                                        cls.sure)
            deck_first = self.classifier is not None
            if self.classifier is None:
                self.classifier = IndexClassifier(models / cls.onnx, cls.turns, cls.sure)
            if cls.second is not None and (not deck_first or (
                    deck is not None and deck.pairs_second)):
                self._load_second(models / cls.second.onnx, cls.turns, cls.sure,
                                  cls.second.min_prob)
        self.min_prob = manifest.min_prob
        # a fixed-size input (NCNN) cannot be enlarged: no second look there
        self.refocus = not config.imgsz
        self.index_px = det.index_px
        self.max_scale = det.max_scale
        self.scale = config.scale
        self.settled: dict[str, float] = {}  # camera → the scale its last frame settled on
        self.runtime = runtime
        self._callbacks: dict[str, list[Trace]] = {event: [] for event in TRACE_EVENTS}
        self.hand_look: HandLook | None = None
        if self.two_stage and det.hand is not None:
            self._load_hand_detector(models, det.hand, det)
        self.calibration = Calibration(manifest.calibration)

    def _load_hand_detector(self, models: Path, hand: HandLookConfig,
                            frame: DetectorSpec) -> None:
        """The detector that looks over the hands (`hand_look`), in ONNX Runtime whatever
        the frame's runtime; one that cannot be loaded leaves the hands to the first look
        (and `warnings` says so)."""
        path = models / hand.onnx
        names = tuple(hand.names or self.names)
        try:
            conf = frame.conf if hand.conf is None else hand.conf
            config = OnnxConfig(path=path, imgsz=frame.infer_imgsz, scale=frame.scale,
                                conf=conf, agnostic=names_cards(names))
            self.use_hand_detector(create_detector(config, names), hand.index_px, hand.alone,
                                   hand.agree)
        except Exception as exc:  # noqa: BLE001 - any load error: unusable, never a failed scan
            self.warnings.append(f"the hand detector {path} cannot be loaded "
                                 f"({str(exc)[:120]}); hands are read by the first look")

    def use_hand_detector(self, detector: Detector, index_px: float | None = None,
                          alone: float = NEVER, agree: float = 0.0) -> None:
        """Look over the hands with `detector` (`hand_look.HandLook`): one that boxes
        indices (read as any index), or one that names the cards (`_named_readings`)."""
        self.hand_look = HandLook(detector, index_px or self.index_px, alone, agree)

    def _load_second(self, path: Path, turns: bool, sure: float | None, min_prob: float
                     ) -> None:
        """The second classifier; one that cannot be loaded leaves the first reading alone
        (and `warnings` says so), as the model read before it had one."""
        try:
            self.second = IndexClassifier(path, turns, sure)
        except Exception as exc:  # noqa: BLE001 - any load error: unusable, never a failed scan
            self.warnings.append(f"the second classifier {path} cannot be loaded "
                                 f"({str(exc)[:120]}); the first reads alone")
            return
        self.second_min_prob = min_prob

    def _deck_detector(self, deck: DeckProfile, path: Path,
                       config: OnnxConfig | NcnnConfig | TorchConfig, runtime: str
                       ) -> Detector | None:
        """The deck's detector, or None (and a warning) when it cannot be used."""
        if runtime != "onnx":
            self.warnings.append(f"deck {deck.name!r}: its detector runs in ONNX Runtime, "
                                 f"not {runtime}; finding cards with the generic detector")
            return None
        try:
            detector = create_detector(config.model_copy(update={"path": path}), self.names)
            detector.detect(np.zeros((64, 64, 3), np.uint8), 1.0)
        # as for the classifier: any load or run error means "unusable", never a failed scan
        except Exception as exc:  # noqa: BLE001
            self.warnings.append(f"deck {deck.name!r}: its detector {path} cannot be loaded "
                                 f"({str(exc)[:120]}); finding cards with the generic one")
            return None
        self.deck = deck.name
        return detector

    def _deck_classifier(self, deck: DeckProfile, path: Path, turns: bool,
                         sure: float | None) -> IndexClassifier | None:
        """The deck's classifier, or None (and a warning) when it cannot read a crop."""
        try:
            classifier = IndexClassifier(path, turns, sure)
            shape = classifier.probabilities([np.zeros((CROP, CROP, 3), np.uint8)]).shape
        # onnxruntime raises its own exception types for a missing, truncated or foreign
        # file; any of them means "this deck's model is unusable", never a failed scan
        except Exception as exc:  # noqa: BLE001
            self.warnings.append(f"deck {deck.name!r}: its model {path} cannot be loaded "
                                 f"({str(exc)[:120]}); reading with the generic model")
            return None
        if shape != (1, len(CLASSIFIER_CLASSES)):
            self.warnings.append(f"deck {deck.name!r}: its model {path} answers {shape[1]} "
                                 "classes, not the reader's; reading with the generic model")
            return None
        self.deck = deck.name
        return classifier

    def read(self, image: np.ndarray, camera: str | None = None) -> ReadResult:
        """Read one frame; `camera` names a fixed camera whose frames share a scale."""
        start = time.perf_counter()
        dets, looks = self.detect(image, camera)
        if self.two_stage:
            index_dets = [d for d in dets if d.cls == INDEX]
            cards = [d for d in dets if d.cls == CARD]
            assert self.classifier is not None
            crops = [crop_index(image, d.box) for d in index_dets]
            labels, offers, paths = self._looked(crops, self.classifier.classify(crops))
            labels = self._rescaled_look(image, index_dets, labels, paths)
            readings = [IndexReading(d, *answer, path) for d, answer, path in
                        zip(index_dets, labels, paths, strict=True) if self._reads(answer)]
            in_hands: list[Detection] = []
            if camera is None:  # a photo: a fixed camera's frame has no time for it
                in_hands, added = self._hand_look(image, index_dets, readings)
                readings += added
            readings += self._gap_readings(image, index_dets + in_hands, readings)
            doubtful = [IndexReading(d, *offer) for d, offer in
                        zip(index_dets, offers, strict=True) if offer is not None]
        else:  # the detector names the card; its confidence is the reading's
            cards = [d for d in dets if d.cls == self.card_cls]
            named = [(d, (self.names[d.cls], d.conf)) for d in dets if d.cls != self.card_cls]
            readings = [IndexReading(d, *answer, "detector") for d, answer in named
                        if self._reads(answer)]
            doubtful = [IndexReading(d, *answer) for d, answer in named
                        if not self._reads(answer) and answer[1] >= MAYBE_PROB]
        found = pair_indices(readings, cards)
        maybe = _maybe(doubtful, cards, found)
        unread = unread_cards(cards, [*found, *maybe])
        if self.two_stage:  # a corner boxed that no card was read or offered from
            unread += unread_indices(index_dets, [*found, *maybe], unread)
        cal = self.calibration
        return ReadResult([cal.card(c) for c in found], (time.perf_counter() - start) * 1000,
                          looks, [cal.card(c, offer=True) for c in maybe], cal.line, unread)

    def _second_look(self, crops: list[np.ndarray], labels: list[Answer]
                     ) -> tuple[list[Answer], list[Answer | None]]:
        """(each crop's answer, what is offered for it): `_looked` without the paths."""
        out, offers, _ = self._looked(crops, labels)
        return out, offers

    def _looked(self, crops: list[np.ndarray], labels: list[Answer]
                ) -> tuple[list[Answer], list[Answer | None], list[str]]:
        """(each crop's answer, what is offered for it, which classifier answered). The
        answer is the second classifier's for a crop the first doubts, where the second is
        sure enough (`classifier.second.min_prob`), the first's elsewhere. A crop read as no
        card is offered as a "maybe" by the surer of the two names (`classifier.offered`)."""
        out = list(labels)
        paths = ["first"] * len(labels)
        seconds: dict[int, Answer] = {}
        doubted = [i for i, answer in enumerate(labels) if first_doubts(answer, self.min_prob)]
        if self.second is not None and doubted:
            seconds = dict(zip(doubted, self.second.classify([crops[i] for i in doubted]),
                               strict=True))
            for i, answer in seconds.items():
                if second_counts(answer, self.second_min_prob):
                    out[i] = answer
                    paths[i] = "second"
        offers: list[Answer | None] = [
            None if self._reads(answer) else offered(labels[i], seconds.get(i), MAYBE_PROB)
            for i, answer in enumerate(out)]
        return out, offers, paths

    def _rescaled_look(self, image: np.ndarray, index_dets: list[Detection],
                       labels: list[Answer], paths: list[str] | None = None) -> list[Answer]:
        """Each corner both classifiers turn down looked at again, cropped at the size of
        the indices around it (`hand_scale`): read there as the reader reads any crop,
        unless it names a card the frame reads already (a half-covered corner cropped
        larger may take in its neighbour's index). `paths` (each label's look) marks the
        answers taken here "rescaled"."""
        turned = [i for i, answer in enumerate(labels) if not self._reads(answer)]
        boxes = rescaled_boxes(index_dets, turned)
        if not boxes:
            return labels
        again = self._answers_at(image, list(boxes.values()))
        out = list(labels)
        where = list(boxes)
        read = {code for code, _ in filter(self._reads, labels)}
        for k in self._new_cards(again, read):
            out[where[k]] = again[k]
            if paths is not None:
                paths[where[k]] = "rescaled"
        return out

    def _hand_look(self, image: np.ndarray, index_dets: list[Detection],
                   readings: list[IndexReading]
                   ) -> tuple[list[Detection], list[IndexReading]]:
        """(the boxes the hand detector added, the cards read from them)."""
        if self.hand_look is None or self.hand_look.names is None:
            in_hands = self._hand_indices(image, index_dets)
            return in_hands, self._hand_readings(image, in_hands, readings)
        # it names the card, also on a corner the classifiers turned down
        in_hands = self._hand_indices(image, index_dets, [r.det for r in readings])
        return in_hands, self._named_readings(image, in_hands, readings)

    def _hand_indices(self, image: np.ndarray, index_dets: list[Detection],
                      taken: list[Detection] | None = None) -> list[Detection]:
        """The indices the hand detector boxes in the hands of the frame's `index_dets`
        where the first look boxed none (or, given `taken`, where it read none); traced as
        `on_hand_look`."""
        if self.hand_look is None:
            return []
        found = self.hand_look.indices(image, index_dets,
                                       index_dets if taken is None else taken)
        self._trace("on_hand_look", found)
        return found

    def _named_readings(self, image: np.ndarray, added: list[Detection],
                        readings: list[IndexReading]) -> list[IndexReading]:
        """The cards a card-naming hand detector named on `added` that read
        (`HandLook.agreed`, the classifiers shown its boxes), unless the frame reads that
        card already."""
        assert self.hand_look is not None
        told = self._answers_at(image, [d.box for d in added]) if added else []
        agreed = self.hand_look.agreed(added, told)
        names = [name for _, name in agreed]
        return [IndexReading(agreed[k][0], *names[k], "named") for k in self._new_cards(
            names, {r.card for r in readings}, reads=lambda _: True)]

    def _hand_readings(self, image: np.ndarray, added: list[Detection],
                       readings: list[IndexReading]) -> list[IndexReading]:
        """The cards read from the indices the hand detector added, as from any index,
        unless they name a card the frame reads already."""
        if not added:
            return []
        answers = self._answers_at(image, [d.box for d in added])
        return [IndexReading(added[k], *answers[k], "hand")
                for k in self._new_cards(answers, {r.card for r in readings})]

    def _gap_readings(self, image: np.ndarray, index_dets: list[Detection],
                      readings: list[IndexReading]) -> list[IndexReading]:
        """Cards read where a stripe of indices skips one (`fan_gaps`): as the reader reads
        any crop, unless it names a card the frame reads already (the place between two
        indices may show one of them)."""
        gaps = stripe_gaps(index_dets)
        if not gaps:
            return []
        answers = self._answers_at(image, [box for box, _, _ in gaps])
        out: list[IndexReading] = []
        for k in self._new_cards(answers, {r.card for r in readings}):
            box, a, b = gaps[k]
            out.append(IndexReading(Detection(box, INDEX, min(a.conf, b.conf)), *answers[k],
                                    "gap"))
        return out

    def _answers_at(self, image: np.ndarray, boxes: list[Box]) -> list[Answer]:
        """Each box's answer as the reader answers for any index crop (`_second_look`),
        without its offers: what a second look at a hand reads."""
        assert self.classifier is not None
        crops = [crop_index(image, box) for box in boxes]
        return self._second_look(crops, self.classifier.classify(crops))[0]

    def _reads(self, answer: Answer) -> bool:
        """Whether the reader reads `answer` as a card: one named at the card threshold."""
        return not first_doubts(answer, self.min_prob)

    def _new_cards(self, answers: list[Answer], read: set[str],
                   reads: Callable[[Answer], bool] | None = None) -> list[int]:
        """The positions of `answers` that read a card (`reads`, by default the card
        threshold) `read` (the frame's cards so far) does not hold, each added to it as
        taken: a second look at a corner or a gap may take in a neighbour's index, which is
        read already."""
        reads = reads or self._reads
        out = []
        for k, answer in enumerate(answers):
            if reads(answer) and answer[0] not in read:
                out.append(k)
                read.add(answer[0])
        return out

    def add_callback(self, event: str, callback: Trace) -> None:
        """Call `callback` with what the reader found at `event` (`TRACE_EVENTS`), as
        ultralytics' predictors run callbacks: evaluation traces a missed card to the
        detections its frame was read with, without detecting the frame twice."""
        if event not in self._callbacks:
            raise ValueError(f"unknown reader event {event!r}; use one of {TRACE_EVENTS}")
        self._callbacks[event].append(callback)

    def remove_callback(self, event: str, callback: Trace) -> None:
        self._callbacks[event].remove(callback)

    def _trace(self, event: str, dets: list[Detection]) -> None:
        for callback in self._callbacks[event]:
            callback(dets)

    def detect(self, image: np.ndarray, camera: str | None = None
               ) -> tuple[list[Detection], int]:
        dets, looks = self._detect(image, camera)
        self._trace("on_detect", dets)
        return dets, looks

    def _detect(self, image: np.ndarray, camera: str | None
                ) -> tuple[list[Detection], int]:
        """The detections to read, and how many looks they took (more than one: the
        configured scale when the camera's settled one finds nothing, a coarse look when
        that finds nothing, then one at the scale the indices ask for).

        A named camera's cards keep their size from frame to frame, so its next frame is
        first looked at where this one settled, and only its first frame pays for a second
        look. Unrelated images (`camera` None: photo uploads, `read`, `eval`) start afresh.
        """
        first = self.settled.get(camera, self.scale) if camera else self.scale
        dets, looks = self._look(image, first), 1
        if not self.refocus:
            return dets, looks
        if not dets and first != self.scale:  # the camera's last scale sees nothing now
            dets, first, looks = self._look(image, self.scale), self.scale, looks + 1
        long_side = max(image.shape[:2])
        coarse = COARSE_SIDE / long_side
        if not dets and coarse < first / MIN_GAIN:
            # nothing found: perhaps cards that fill the frame, too big for this input
            dets, first, looks = self._look(image, coarse), coarse, looks + 1
        again = refocus_scale([d.size for d in dets if d.cls != self.card_cls], long_side,
                              first, self.index_px, self.max_scale, base=self.scale,
                              card_sizes=[d.size for d in dets if d.cls == self.card_cls])
        if again:
            dets, first, looks = self._look(image, again), again, looks + 1
        if camera and dets:  # an empty table says nothing about the cards' size
            self.settled[camera] = first
        return dets, looks

    def _look(self, image: np.ndarray, scale: float) -> list[Detection]:
        # a box under 2 px is no index: runtimes can emit them at the image border
        return [d for d in self.detector.detect(image, scale)
                if d.box[2] - d.box[0] >= 2 and d.box[3] - d.box[1] >= 2]


def load_image(path: Path) -> np.ndarray:
    import cv2

    if not path.exists():
        raise VisionError(f"{path}: no such file")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise VisionError(f"{path}: not an image OpenCV can read")
    return image
