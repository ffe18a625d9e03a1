"""Pre- and post-processing shared by the runtimes that return raw YOLO tensors."""

from __future__ import annotations

import cv2
import numpy as np

from scorekeeper.vision.detectors.base import Detection

PAD_VALUE = 114
STRIDE = 32


def input_size(shape: tuple[int, ...], fixed: int, scale: float, lo: int = 320,
               hi: int = 1280) -> int:
    """The square input side for a frame: `fixed`, or `scale` × its long side when 0.

    The detector learnt cards of a certain size in pixels; scaling every frame to one
    size would shrink the indices of a 1920-px frame below what it can see.
    """
    if fixed:
        return fixed
    side = max(shape[0], shape[1]) * scale
    return int(min(hi, max(lo, -(-side // STRIDE) * STRIDE)))


def letterbox(image: np.ndarray, size: int, square: bool = True
              ) -> tuple[np.ndarray, float, tuple[int, int]]:
    """Resize keeping the aspect ratio so the long side is `size`, then pad as ultralytics does.

    `square` pads to size × size (fixed-shape runtimes); otherwise each side is padded only
    to a multiple of the stride, which saves a quarter of the work on a 4:3 frame.
    """
    h, w = image.shape[:2]
    scale = min(size / h, size / w)
    nh, nw = round(h * scale), round(w * scale)
    resized = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_LINEAR)
    oh, ow = (size, size) if square else (-(-nh // STRIDE) * STRIDE, -(-nw // STRIDE) * STRIDE)
    top, left = (oh - nh) // 2, (ow - nw) // 2
    out = np.full((oh, ow, 3), PAD_VALUE, dtype=np.uint8)
    out[top:top + nh, left:left + nw] = resized
    return out, scale, (left, top)


def to_tensor(letterboxed: np.ndarray) -> np.ndarray:
    rgb = letterboxed[:, :, ::-1].transpose(2, 0, 1)
    return np.ascontiguousarray(rgb, dtype=np.float32)[None] / 255.0


def decode(raw: np.ndarray, scale: float, pad: tuple[int, int], conf: float, iou: float,
           shape: tuple[int, int], agnostic: bool = False) -> list[Detection]:
    """YOLO head output (1, 4 + classes, anchors) → detections after class-aware NMS (one
    NMS over all classes when `agnostic`)."""
    pred = raw[0].T  # anchors × (4 + classes)
    scores = pred[:, 4:]
    cls = scores.argmax(1)
    best = scores[np.arange(len(cls)), cls]
    keep = best >= conf
    pred, cls, best = pred[keep], cls[keep], best[keep]
    if not len(pred):
        return []
    cx, cy, w, h = pred[:, 0], pred[:, 1], pred[:, 2], pred[:, 3]
    x1 = (cx - w / 2 - pad[0]) / scale
    y1 = (cy - h / 2 - pad[1]) / scale
    bw, bh = w / scale, h / scale
    # offset boxes by class so NMS never suppresses one class with another
    offset = 0.0 if agnostic else cls * 10_000.0
    rects = np.stack([x1 + offset, y1, bw, bh], 1).tolist()
    kept = cv2.dnn.NMSBoxes(rects, best.tolist(), conf, iou)
    ih, iw = shape
    out = []
    for i in np.array(kept).reshape(-1):
        bx1 = float(np.clip(x1[i], 0, iw))
        by1 = float(np.clip(y1[i], 0, ih))
        bx2 = float(np.clip(x1[i] + bw[i], 0, iw))
        by2 = float(np.clip(y1[i] + bh[i], 0, ih))
        out.append(Detection((bx1, by1, bx2, by2), int(cls[i]), float(best[i])))
    return out
