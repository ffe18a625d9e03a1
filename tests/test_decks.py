"""Deck profiles: names, labels files refused by line, fallback, removal, `read --deck`."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorekeeper.cli import main
from scorekeeper.decks.labels import corner_windows, index_boxes, read_labels
from scorekeeper.decks.profile import (
    DeckError,
    check_name,
    create_or_open,
    deck_for_reading,
    list_decks,
    open_deck,
    remove_deck,
)
from scorekeeper.vision.detectors.base import Detection

ROOT = Path(__file__).resolve().parents[1]
HAVE_MODEL = (ROOT / "models" / "model.json").exists()
SAMPLE = ROOT / "scorekeeper" / "camera" / "samples" / "sample-4-table-melds.jpg"


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SCOREKEEPER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("SCOREKEEPER_CONFIG", raising=False)
    return tmp_path / "data"


@pytest.mark.parametrize("name", ["home", "Blue-Bicycle_2", "a" * 40])
def test_good_names(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize("name", ["", "../up", "a/b", "-x", "a" * 41, "dé", "a b", "."])
def test_bad_names_are_refused(name: str) -> None:
    with pytest.raises(DeckError, match="deck name"):
        check_name(name)


def _photo(folder: Path, name: str = "p.png", size: tuple[int, int] = (200, 100)) -> Path:
    cv2.imwrite(str(folder / name), np.full((size[1], size[0], 3), 128, np.uint8))
    return folder / name


def _labels(folder: Path, *lines: str) -> Path:
    path = folder / "labels.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def _line(card: object = "QD", box: object = (10, 10, 40, 60), image: str = "p.png") -> str:
    return json.dumps({"image": image, "cards": [{"card": card, "box": list(box)
                                                   if isinstance(box, tuple) else box}]})


def test_a_good_labels_file_reads(tmp_path: Path) -> None:
    _photo(tmp_path)
    photos = read_labels(_labels(tmp_path, _line(), "", _line("10h", (0, 0, 200, 100))))
    assert [(p.line, p.cards) for p in photos] == [
        (1, [("QD", (10.0, 10.0, 40.0, 60.0))]), (3, [("10H", (0.0, 0.0, 200.0, 100.0))])]


@pytest.mark.parametrize(("bad", "needle"), [
    (_line("ZZ"), "line 2, card 1: unknown card 'ZZ'"),
    (_line("QD", (150, 10, 210, 60)), r"line 2, card 1: box \[150, 10, 210, 60\] is outside "
                                       "the 200×100 image"),
    (_line("QD", (-1, 10, 20, 60)), "line 2, card 1: box"),
    (_line("QD", (40, 10, 10, 60)), "not x1 < x2"),
    (_line("QD", [1, 2, 3]), "line 2, card 1: box must be"),
    (_line("QD", ["1", 2, 3, 4]), "line 2, card 1: box must be"),
    (_line(image="missing.png"), "line 2: .*missing.png: no such file"),
    ("{not json", "line 2: not valid JSON"),
    ('{"image": "p.png"}', "line 2: expected"),
])
def test_a_bad_line_is_refused_by_its_number(tmp_path: Path, bad: str, needle: str) -> None:
    _photo(tmp_path)
    with pytest.raises(DeckError, match=needle):
        read_labels(_labels(tmp_path, _line(), bad, _line()))


@pytest.mark.skipif(not HAVE_MODEL, reason="no card model")
def test_deck_add_with_a_bad_line_stores_nothing(tmp_path: Path, data_dir: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    _photo(tmp_path)
    labels = _labels(tmp_path, _line(), _line("QX"))
    assert main(["deck", "add", "home", "--labels", str(labels)]) == 2
    assert "labels.jsonl line 2, card 1: unknown card 'QX'" in capsys.readouterr().err
    assert not (data_dir / "decks" / "home").exists()


def test_whole_card_boxes_become_their_corner_indices() -> None:
    card = (100.0, 100.0, 200.0, 240.0)
    near = Detection((102, 103, 120, 135), 0, 0.9)
    far = Detection((180, 205, 198, 237), 0, 0.9)
    middle = Detection((140, 160, 158, 190), 0, 0.9)  # a pip, not a corner
    assert index_boxes(card, [near, far, middle]) == [near.box, far.box]
    assert index_boxes(near.box, [near]) == [near.box]  # an index box stays itself
    # no detection inside: the card's corner windows, top-left and bottom-right
    tl, br = corner_windows(card)
    assert tl[0] < 120 and tl[1] < 140 and br[2] > 180 and br[3] > 200
    assert index_boxes(card, [Detection(card, 1, 0.9)]) == [tl, br]


def test_profiles_list_remove_and_fall_back(data_dir: Path) -> None:
    profile, created = create_or_open(data_dir, "home")
    assert created and create_or_open(data_dir, "home")[1] is False
    (profile.examples_dir / "000000.png").write_bytes(b"x")
    assert [p.name for p in list_decks(data_dir)] == ["home"]  # type: ignore[union-attr]
    # not adapted yet: the generic model reads, and says why
    assert deck_for_reading(data_dir, "home")[0] is None
    assert "no adapted model yet" in str(deck_for_reading(data_dir, "home")[1])
    assert "no deck named 'away'" in str(deck_for_reading(data_dir, "away")[1])
    assert deck_for_reading(data_dir, None) == (None, None)
    # a corrupt manifest: listed as broken, read with the generic model
    (profile.folder / "deck.json").write_text("{half")
    with pytest.raises(DeckError, match="unreadable"):
        open_deck(data_dir, "home")
    assert isinstance(list_decks(data_dir)[0], DeckError)
    assert "generic model" in str(deck_for_reading(data_dir, "home")[1])
    folder = remove_deck(data_dir, "home")
    assert not folder.exists() and list_decks(data_dir) == []
    with pytest.raises(DeckError, match="no deck named"):
        remove_deck(data_dir, "home")


def test_deck_remove_from_the_command_line(data_dir: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    create_or_open(data_dir, "home")
    assert main(["deck", "list"]) == 0
    assert "home: 0 examples; not adapted yet" in capsys.readouterr().out
    assert main(["deck", "remove", "home"]) == 0
    assert not (data_dir / "decks" / "home").exists()
    assert main(["deck", "remove", "home"]) == 2
    assert "no deck named 'home'" in capsys.readouterr().err


@pytest.mark.skipif(not HAVE_MODEL, reason="no card model")
def test_a_corrupt_deck_model_reads_with_the_generic_one(
        data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from scorekeeper.vision.reader import CardReader

    profile, _ = create_or_open(data_dir, "home")
    broken = profile.folder / "broken.onnx"
    broken.write_bytes(b"not a model")
    profile.manifest["classifier"] = {"onnx": broken.name}
    profile.save()
    reader = CardReader(deck=open_deck(data_dir, "home"))
    assert reader.deck is None and "cannot be loaded" in reader.warnings[0]
    assert main(["read", "--json", "--deck", "home", str(SAMPLE)]) == 0
    out = capsys.readouterr()
    assert "generic model" in out.err
    generic = CardReader().read(cv2.imread(str(SAMPLE)))
    assert len(json.loads(out.out)["cards"]) == len(generic.cards) > 0
