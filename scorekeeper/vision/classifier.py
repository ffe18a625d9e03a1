"""The index classifier: a corner crop → one of 52 cards, the joker, or "not an index".

Reading rank and suit from a tight crop lets the detector learn one shape (an index)
instead of 53, which is what a 2-core trainer can afford; see models/README.md.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from scorekeeper.vision.classes import CLASSIFIER_CLASSES

CROP = 48
MARGIN = 0.15  # context around the detected box, as the training crops have


def crop_index(image: np.ndarray, box: tuple[float, float, float, float],
               margin: float = MARGIN, size: int = CROP) -> np.ndarray:
    """A square, padded crop centred on the box, so rotation never stretches the glyphs."""
    x1, y1, x2, y2 = box
    side = max(x2 - x1, y2 - y1, 1.0) * (1 + 2 * margin)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    m = np.array([[size / side, 0, size / 2 - cx * size / side],
                  [0, size / side, size / 2 - cy * size / side]], dtype=np.float32)
    return cv2.warpAffine(image, m, (size, size), flags=cv2.INTER_AREA,
                          borderMode=cv2.BORDER_REPLICATE)


Answer = tuple[str, float]  # a class of CLASSIFIER_CLASSES and its probability


def answers(p: np.ndarray) -> list[Answer]:
    """Each row of probabilities as its surest class and that class's probability."""
    best = p.argmax(1)
    return [(CLASSIFIER_CLASSES[k], float(p[i, k])) for i, k in enumerate(best)]


def first_doubts(answer: Answer, min_prob: float) -> bool:
    """The reader asks the second classifier about a crop the first answers `none` or
    under the card threshold `min_prob`. The reader and `deck adapt`'s check both ask this,
    so that the check weighs the pair as the reader reads it."""
    return answer[0] == "none" or answer[1] < min_prob


def second_counts(answer: Answer, min_prob: float) -> bool:
    """The second's answer stands where it names a card at its own threshold or more."""
    return answer[0] != "none" and answer[1] >= min_prob


def offered(first: Answer, second: Answer | None, maybe_prob: float) -> Answer | None:
    """What the scan review offers for a corner neither classifier reads surely (a "maybe":
    one tap adds it): the name the surer of the two gives, from `maybe_prob` up; None where
    neither names a card so surely. `second` None: the second was not asked.

    Offering the surer of the two, not the first's answer whatever the second said,
    doubles the missed cards one tap fixes on fans of real print (the lab's offer_rules
    analysis; models/README.md)."""
    names = [a for a in (first, second) if a is not None and a[0] != "none"
             and a[1] >= maybe_prob]
    return max(names, key=lambda a: a[1]) if names else None


def crops_to_tensor(crops: list[np.ndarray]) -> np.ndarray:
    batch = np.stack([c[:, :, ::-1] for c in crops]).transpose(0, 3, 1, 2)
    return np.ascontiguousarray(batch, dtype=np.float32) / 255.0


class IndexClassifier:
    """`turns`: also read each crop turned 90°, 180° and 270° and average the four answers.

    The network was trained on all four turns under one label (an index lies at any angle),
    so the turns are free extra looks at the same crop: fewer misreads for 4× a small cost.

    `sure`: read every crop upright first, and the other three turns only for the crops
    that look gives no answer of at least `sure` (None: all four turns for every crop). At
    0.95 no crop of the held-out, real-photo or bench frames changes its answer (card or
    not, which card) against four turns for all, and about half the looks are saved
    (lab/RECORD.md, the classifier's speed).
    """

    def __init__(self, path: Path, turns: bool = True, sure: float | None = None) -> None:
        import onnxruntime as ort

        self.session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        self.input = self.session.get_inputs()[0].name
        self.turns = turns
        self.sure = sure if turns else None

    def _run(self, x: np.ndarray, turns: tuple[int, ...]) -> np.ndarray:
        """The softmax of each crop of `x` (NCHW) at each of `turns`, averaged."""
        looks = [np.ascontiguousarray(np.rot90(x, k, axes=(2, 3))) for k in turns]
        logits = np.asarray(self.session.run(None, {self.input: np.concatenate(looks)})[0])
        z = logits - logits.max(1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(1, keepdims=True)
        out: np.ndarray = p.reshape(len(looks), len(x), -1).mean(0)
        return out

    def probabilities(self, crops: list[np.ndarray],
                      turns: tuple[int, ...] | None = None) -> np.ndarray:
        """Each crop's answer, averaged over quarter `turns` (default: as configured)."""
        x = crops_to_tensor(crops)
        if turns is not None or self.sure is None:
            return self._run(x, turns if turns is not None else
                             (0, 1, 2, 3) if self.turns else (0,))
        p = self._run(x, (0,))
        unsure = np.flatnonzero(p.max(1) < self.sure)
        if len(unsure):
            rest = self._run(x[unsure], (1, 2, 3))
            p[unsure] = (p[unsure] + 3 * rest) / 4
        return p

    def classify(self, crops: list[np.ndarray]) -> list[tuple[str, float]]:
        if not crops:
            return []
        return answers(self.probabilities(crops))
