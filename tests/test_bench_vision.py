"""`scorekeeper bench vision` times the frames the repository ships and scores what it read.

The frames are the benchmark's inputs on every machine (benchmarks/frames/, its README);
a missing or unlabelled one would make the README's speed table uncheckable.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from scorekeeper.vision.bench import FRAMES, load_frames, run, score
from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.pairing import IndexReading, PhysicalCard
from scorekeeper.vision.reader import ReadResult

ROOT = Path(__file__).resolve().parents[1]


def test_every_shipped_frame_is_there_with_its_labels() -> None:
    frames = load_frames()
    cases = {f.case for f in frames}
    assert {"1280x960, 10 cards", "1280x960, 30 cards", "1280x960, 30 small cards",
            "1920x1080, 10 cards", "1920x1080, 30 cards"} <= cases
    for f in frames:
        assert f.path.is_file(), f.path
        assert f.cards or f.unboxed, f.case
    assert sum(p.stat().st_size for p in FRAMES.glob("*.jpg")) < 3_000_000  # small to ship
    assert (FRAMES / "README.md").is_file()


def _card(code: str, box: tuple[float, float, float, float]) -> PhysicalCard:
    reading = IndexReading(Detection(box, 0, 0.9), code, 0.9)
    return PhysicalCard(code, 0.9, box, [reading])


def test_a_read_is_scored_right_wrong_or_stray() -> None:
    frame = next(f for f in load_frames() if f.case == "1280x960, 30 cards")
    (code, boxes), (other, other_boxes) = frame.cards[0], frame.cards[1]
    box = tuple(boxes[0])
    wrong_code = next(c for c in ("AS", "2H") if c not in (code, other))
    cards = [_card(code, box), _card(wrong_code, tuple(other_boxes[0])),
             _card("KD", (-50.0, -50.0, -40.0, -40.0))]  # on no card at all
    tally = score(frame, ReadResult(cards, 1.0))
    assert (tally.right, tally.wrong, tally.labelled) == (1, 2, len(frame.cards))


@pytest.mark.skipif(not (ROOT / "models" / "model.json").exists(), reason="no trained model")
def test_the_bench_reads_the_shipped_frames_as_the_readme_says() -> None:
    out = io.StringIO()
    figures = run(["onnx"], repeats=1, out=out)
    lines = out.getvalue().splitlines()
    assert set(figures["onnx"]) == {f.case for f in load_frames()}
    for line in lines:
        right, labelled = map(int, line.split(" right")[0].rsplit(" ", 1)[1].split("/"))
        wrong = int(line.rsplit(", ", 1)[1].split(" wrong")[0])
        # the shipped model reads these frames nearly whole (README, speed): a frame read
        # far worse is a broken reader or frames that are not the ones measured
        assert right >= 0.8 * labelled and wrong <= 2, line
