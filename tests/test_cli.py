"""The `scorekeeper score` contract end to end: bad input, exit codes, start-up weight."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

GOOD = json.dumps({"variant": "rummy", "players": [
    {"name": "Ann", "went_out": True}, {"name": "Bob", "hand": ["KD", "AC"]}]})


def run(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scorekeeper", "score", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_one_result_per_line_in_order(tmp_path) -> None:
    chicago = json.dumps({"variant": "chicago", "players": [
        {"name": "Ann", "total": 95, "hand": ["7H", "7S", "7D", "4H", "KC", "KS", "2C"],
         "knocked": True},
        {"name": "Bob", "hand": ["3H", "3S", "9D", "JD", "QD", "5C", "6C"]}]})
    done = run(f"{GOOD}\n\n{chicago}\n")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(x) for x in done.stdout.splitlines()]
    assert [x["players"][0]["points"] for x in lines] == [11, 4]
    assert lines[1]["knock"] == {"player": "Ann", "limit": 5, "deadwood": 4, "legal": True,
                                 "penalty": 0}
    f = tmp_path / "hands.jsonl"
    f.write_text(GOOD + "\n")
    assert json.loads(run("", str(f)).stdout)["players"][0]["total"] == 11


@pytest.mark.parametrize(("line", "needle"), [
    ("{not json", "not valid JSON"),
    ('["a list"]', "must be a JSON object"),
    ('{"variant": "poker", "players": []}', "'poker'"),
    ('{"variant": "rummy", "players": [{"name": "A", "went_out": true},'
     ' {"name": "B", "hand": ["ZZ"]}]}', "'ZZ'"),
    ('{"variant": "rummy", "players": [{"name": "A", "went_out": true},'
     ' {"name": "B", "hand": ["KD", "KD"]}]}', "KD appears 2 times"),
    ('{"variant": "chicago", "players": [{"name": "A", "knocked": true, '
     '"hand": ["7H","7H","7H"]}, {"name": "B"}]}', "7H appears 3 times"),
    ('{"variant": "rummy", "players": [{"name": "A", "went_out": true}, {"name": "A"}]}',
     "'A' is named twice"),
    ('{"variant": "rummy", "players": [{"name": "A"}, {"name": "B"}]}', "no winner"),
    ('{"variant": "rummy", "settings": {"aces": "high"}, "players": []}', "'aces'"),
])
def test_bad_line_is_named_exit_2_and_no_partial_result(line: str, needle: str) -> None:
    done = run(f"{GOOD}\n{line}\n{GOOD}\n")
    assert done.returncode == 2
    assert done.stderr.startswith("line 2: ")
    assert needle in done.stderr
    assert len(done.stdout.splitlines()) == 1  # the good first line only, nothing after


def test_missing_file_is_a_clear_error(tmp_path) -> None:
    done = run("", str(tmp_path / "nope.jsonl"))
    assert done.returncode == 2 and "nope.jsonl" in done.stderr


def test_score_imports_no_heavy_stack() -> None:
    code = ("import sys, io; from scorekeeper.cli import _score; "
            "_score(io.StringIO(sys.argv[1]), io.StringIO(), sys.stderr); "
            "heavy = {'torch', 'ultralytics', 'cv2', 'fastapi'} & set(sys.modules); "
            "print(sorted(heavy))")
    done = subprocess.run([sys.executable, "-c", code, GOOD], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_read_takes_the_model_folder_from_models_or_the_config(tmp_path) -> None:
    image = tmp_path / "x.jpg"
    image.write_bytes(b"")
    done = run_cmd("read", "--models", str(tmp_path / "m1"), str(image))
    assert done.returncode == 2 and str(tmp_path / "m1" / "model.json") in done.stderr
    config = tmp_path / "config.toml"
    config.write_text(f'[model]\ndir = "{tmp_path / "m2"}"\n')
    done = run_cmd("read", "--config", str(config), str(image))
    assert done.returncode == 2 and str(tmp_path / "m2" / "model.json") in done.stderr


def run_cmd(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    return subprocess.run([sys.executable, "-m", "scorekeeper", *args], capture_output=True,
                          text=True, timeout=120, env=env)
