"""Reading real-world frames end to end: any scale, no phantom cards, the mat's own print.

Fixtures: `tests/fixtures/reading/` (made by its make.py; see its README) and the sample
frames the replay camera ships (`scorekeeper/camera/samples/`, truth in their README).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from scorekeeper.vision.reader import CardReader, load_image
from scorekeeper.vision.scan import place_on_mat

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "reading"
SAMPLES = ROOT / "scorekeeper" / "camera" / "samples"
pytestmark = pytest.mark.skipif(not (ROOT / "models" / "model.json").exists(),
                                reason="no trained model in models/")


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader()


def read(reader: CardReader, path: Path) -> list[str]:
    """The cards a scan would keep: read, then only what lies in the mat's zones."""
    image = load_image(path)
    return sorted(c.card for c in place_on_mat(image, reader.read(image).cards)[0])


def test_two_cards_that_fill_a_phone_photo_are_both_read(reader: CardReader) -> None:
    truth = json.loads((FIXTURES / "closeup-two.json").read_text())
    assert min(px for c in truth["cards"] for px in c["index_px"]) > 250  # a real close-up
    image = load_image(FIXTURES / "closeup-two.jpg")
    assert image.shape[:2] == (2250, 3000)
    assert read(reader, FIXTURES / "closeup-two.jpg") == sorted(c["card"] for c in truth["cards"])


def test_a_lone_turned_card_is_read_once(reader: CardReader) -> None:
    # one card, one reading: its two corners are one card even where the detector boxed
    # the card as two halves (issue 30: a lone 2♥ at 30° on a dark table read as two)
    assert read(reader, FIXTURES / "lone-turned.jpg") == ["2H"]


def test_a_page_of_text_reads_no_card(reader: CardReader) -> None:
    assert read(reader, FIXTURES / "text-page.jpg") == []


def test_the_bare_scan_mat_reads_no_card(reader: CardReader) -> None:
    assert read(reader, FIXTURES / "mat-bare.jpg") == []


@pytest.mark.parametrize(("sample", "cards"), [
    ("sample-1-mat-a4.jpg", "10H 10D 10C QS QD AS"),
    ("sample-2-mat-a4.jpg", "10H 10D 10C 9H QS"),
])
def test_the_sample_mat_frames_read_every_card_and_nothing_else(
        reader: CardReader, sample: str, cards: str) -> None:
    got = Counter(read(reader, SAMPLES / sample))
    assert got == Counter(cards.split())
