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


def crops_to_tensor(crops: list[np.ndarray]) -> np.ndarray:
    batch = np.stack([c[:, :, ::-1] for c in crops]).transpose(0, 3, 1, 2)
    return np.ascontiguousarray(batch, dtype=np.float32) / 255.0


class IndexClassifier:
    def __init__(self, path: Path) -> None:
        import onnxruntime as ort

        self.session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        self.input = self.session.get_inputs()[0].name

    def classify(self, crops: list[np.ndarray]) -> list[tuple[str, float]]:
        if not crops:
            return []
        logits = self.session.run(None, {self.input: crops_to_tensor(crops)})[0]
        z = logits - logits.max(1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(1, keepdims=True)
        best = p.argmax(1)
        return [(CLASSIFIER_CLASSES[k], float(p[i, k])) for i, k in enumerate(best)]
