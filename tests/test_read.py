"""`scorekeeper read` with the shipped model on real photographs (fixtures, Apache-2.0)."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.vision.classes import RANK_NAMES, rank_of

ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT / "tests" / "fixtures" / "real"
pytestmark = pytest.mark.skipif(not (ROOT / "models" / "model.json").exists(),
                                reason="no trained model in models/")


def labelled() -> dict[str, tuple[str, list[float]]]:
    with open(REAL / "labels.csv", newline="") as fh:
        return {row["filename"]: ({v: k for k, v in RANK_NAMES.items()}[row["class"]],
                                  [float(row[k]) for k in ("xmin", "ymin", "xmax", "ymax")])
                for row in csv.DictReader(fh)}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scorekeeper", "read", *args],
                          capture_output=True, text=True, timeout=300)


def test_read_finds_the_right_rank_inside_the_card(tmp_path: Path) -> None:
    truth = labelled()
    images = [str(REAL / name) for name in sorted(truth)]
    done = run(*images, "--json", "--annotate", str(tmp_path))
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [Path(x["image"]).name for x in lines] == sorted(truth)
    for line in lines:
        rank, box = truth[Path(line["image"]).name]
        assert [rank_of(c["card"]) for c in line["cards"]] == [rank], line
        card = line["cards"][0]
        cx, cy = (card["box"][0] + card["box"][2]) / 2, (card["box"][1] + card["box"][3]) / 2
        assert box[0] <= cx <= box[2] and box[1] <= cy <= box[3]
        assert 0 < card["confidence"] <= 1 and line["ms"] >= 0
        # what the review asks the players to check, as it shows it
        assert line["check"] == {"unsure": [c["card"] for c in line["cards"] if not c["sure"]],
                                 "offers": [c["card"] for c in line["maybe"]],
                                 "unread": [u["box"] for u in line["unread"]]}
        assert line["unread"] == [], "its one card is read: no card left unread"
    assert len(list(tmp_path.glob("*.annotated.jpg"))) == len(truth)


def test_bad_images_are_named_and_the_others_still_read(tmp_path: Path) -> None:
    junk = tmp_path / "junk.jpg"
    junk.write_bytes(b"not a picture")
    good = REAL / "IMG_2385.JPG"
    done = run(str(tmp_path / "missing.jpg"), str(junk), str(good), "--json")
    assert done.returncode == 2
    assert "missing.jpg: no such file" in done.stderr
    assert "junk.jpg: not an image" in done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [Path(x["image"]).name for x in lines] == ["IMG_2385.JPG"]


def test_the_classifier_threshold_comes_from_model_json(tmp_path: Path) -> None:
    import shutil

    from scorekeeper.vision.reader import CardReader, load_image

    models = tmp_path / "models"
    shutil.copytree(ROOT / "models", models)
    image = load_image(REAL / "IMG_2385.JPG")
    assert CardReader(models).read(image).cards
    meta = json.loads((models / "model.json").read_text())
    meta["classifier"]["min_prob"] = 1.01  # no answer is that sure: nothing is a card
    (models / "model.json").write_text(json.dumps(meta))
    strict = CardReader(models)
    assert strict.min_prob == 1.01 and strict.read(image).cards == []
