"""The registries: variants, detector runtimes and cameras, one shape, one row each.

A record that disagrees with its own settings or config class would serve the page a rule
the server does not score, or a camera spec it cannot read: each is checked against it.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, get_args

import pytest
from pydantic import BaseModel

from scorekeeper.camera import CAMERAS, CameraSpecError, camera_from_spec
from scorekeeper.camera.spec import SPEC_HELP
from scorekeeper.registry import Plugin, Registry, RegistryError
from scorekeeper.rules import Game, RulesError, score_hand
from scorekeeper.rules.cards import JOKER, RANKS, SUITS, Card
from scorekeeper.rules.settings import VariantSettings
from scorekeeper.rules.variants import VARIANTS, Variant, parse_settings, variant, variant_for
from scorekeeper.settings import Runtime
from scorekeeper.vision.detectors import DETECTORS, DetectorConfig
from scorekeeper.vision.detectors.base import YoloConfig

ROOT = Path(__file__).resolve().parents[1]


class Thing(BaseModel):
    size: int = 1


def test_the_generic_registry() -> None:
    reg: Registry[Plugin[Any]] = Registry("gadget", [Plugin("b", Thing, str),
                                                     Plugin("a", Thing, int)])
    assert reg.names() == ("b", "a") and list(reg) == ["b", "a"] and len(reg) == 2
    assert reg.get("a").factory is int and "a" in reg
    assert "c" not in reg and ["a"] not in reg
    assert [e.name for e in reg.entries()] == ["b", "a"]
    with pytest.raises(RegistryError, match=r"^unknown gadget 'c'; use one of b, a$"):
        reg.get("c")
    with pytest.raises(RegistryError, match=r"unknown gadget \['a'\]"):
        reg.get(["a"])  # an unhashable name is only unknown
    with pytest.raises(ValueError, match="'a' is registered twice"):
        reg.add(Plugin("a", Thing, float))


@pytest.mark.parametrize(("look_up", "error", "message"), [
    (lambda: variant("gin"), RulesError,
     "unknown variant 'gin'; use one of chicago, rummy, rummy10, rummy500"),
    (lambda: variant(None), RulesError, "unknown variant null; use one of chicago"),
    (lambda: parse_settings(7, {}), RulesError, "unknown variant 7; use one of chicago"),
    (lambda: Game("poker", ["A", "B"]), RulesError, "unknown variant 'poker'; use one of"),
    (lambda: DETECTORS.get("tflite"), RegistryError,
     "unknown detector runtime 'tflite'; use one of onnx, ncnn, torch"),
    (lambda: CAMERAS.get("webcam"), CameraSpecError,
     "unknown camera 'webcam'; use one of picamera2, opencv, replay, none"),
    (lambda: camera_from_spec("webcam:0"), CameraSpecError,
     f"unknown camera 'webcam:0': use {SPEC_HELP}"),
])
def test_an_unknown_name_lists_the_known_ones(look_up: Any, error: type[Exception],
                                              message: str) -> None:
    with pytest.raises(error) as got:
        look_up()
    assert str(got.value).startswith(message)


# --- variants -------------------------------------------------------------------------------

RECORDS = VARIANTS.entries()


def ids(records: tuple[Any, ...]) -> list[str]:
    return [r.name for r in records]


def combos(v: Variant[Any], keys: tuple[str, ...]) -> list[dict[str, Any]]:
    return [dict(zip(keys, values, strict=True))
            for values in itertools.product(*(v.options(k) for k in keys))]


@pytest.mark.parametrize("v", RECORDS, ids=ids(RECORDS))
def test_a_record_matches_its_settings_class(v: Variant[Any]) -> None:
    assert issubclass(v.settings, VariantSettings) and v.config is v.settings
    assert v.parse({}) == v.settings() == parse_settings(v.name, None)
    assert variant(v.name) is v and variant_for(v.settings()) is v
    assert getattr(v.settings, "variant", v.name) == v.name  # the Rummy family names itself
    assert [s.key for s in v.schema] == list(v.settings.model_fields)
    for s in v.schema:
        assert s.default == v.settings.model_fields[s.key].default
        for option in s.options or ():
            assert v.accepts(s.key, option)
        if s.type == "integer":
            assert s.min is not None and v.accepts(s.key, s.min)
            assert not v.accepts(s.key, s.min - 1)
    fewest, most = v.players
    assert 2 <= fewest <= most


@pytest.mark.parametrize("v", RECORDS, ids=ids(RECORDS))
def test_a_record_names_the_settings_its_figures_depend_on(v: Variant[Any]) -> None:
    """The deck and card points change with the named settings and with no other one."""
    finite = tuple(s.key for s in v.schema if s.options is not None)
    cards = [Card(r, s) for r in range(1, len(RANKS) + 1) for s in SUITS] + [JOKER]
    for keys, figure in ((v.deck_keys, v.deck),
                         (v.points_keys, lambda s: [v.points(c, s) for c in cards])):
        assert set(keys) <= set(finite)
        others = tuple(k for k in finite if k not in keys)
        for named in combos(v, keys):
            seen = {repr(figure(v.parse({**named, **rest}))) for rest in combos(v, others)}
            assert len(seen) == 1, (v.name, named)
        assert len({repr(figure(v.parse(named))) for named in combos(v, keys)}) \
            == len(combos(v, keys))


@pytest.mark.parametrize("v", RECORDS, ids=ids(RECORDS))
def test_a_complete_hand_fits_in_the_decks(v: Variant[Any]) -> None:
    decks = max(v.deck(v.parse(when)).decks for when in combos(v, v.deck_keys))
    fewest, most = v.players
    shape = v.hand
    if shape.cards is not None:
        assert shape.ender in (None, shape.cards + 1)
        assert most * shape.cards + 1 <= 52 * decks
    if shape.dealt is not None:
        assert all(n * shape.dealt(n) < 52 * decks for n in range(fewest, most + 1))


def test_only_chicago_knocks_and_counts_down() -> None:
    assert [v.name for v in RECORDS if v.knock is not None] == ["chicago"]
    assert [v.name for v in RECORDS if v.low_wins] == ["chicago"]
    assert [v.name for v in RECORDS if v.target is None] == ["chicago"]
    assert [v.name for v in RECORDS if v.hand_limit is not None] == ["rummy"]
    with pytest.raises(RulesError, match="the knock check is for Chicago Rummy"):
        Game("rummy", ["A", "B"]).knock_check("A", ["AS"])


def test_settings_of_no_variant_are_a_bug_not_input() -> None:
    with pytest.raises(TypeError, match="not a variant's settings"):
        variant_for({"variant": "rummy"})
    with pytest.raises(TypeError, match="not a variant's settings"):
        score_hand({"variant": "rummy"}, [])  # type: ignore[arg-type]


# --- detectors and cameras ------------------------------------------------------------------

def test_every_detector_runtime_has_its_config_class() -> None:
    union = get_args(get_args(DetectorConfig)[0])
    assert tuple(e.config for e in DETECTORS.entries()) == union
    for entry in DETECTORS.entries():
        assert issubclass(entry.config, YoloConfig)
        assert entry.config.model_fields["type"].default == entry.name
        assert callable(entry.factory)
    assert DETECTORS.names() == get_args(Runtime)  # the server's setting takes each one


def test_every_camera_has_its_config_class() -> None:
    for entry in CAMERAS.entries():
        assert issubclass(entry.config, BaseModel)
        assert entry.config.model_config.get("extra") == "forbid"
        assert entry.target is None or entry.target in entry.config.model_fields
        assert entry.usage.startswith(entry.name) and entry.usage in SPEC_HELP
        assert callable(entry.factory)
    assert [e.name for e in CAMERAS.entries() if e.target_required] == ["replay"]


def test_registering_imports_no_runtime() -> None:
    """Only a chosen backend loads its runtime (a Pi has no torch, a PC no picamera2)."""
    probe = ("import json, sys; import scorekeeper.vision.detectors, scorekeeper.camera; "
             "heavy = ('torch', 'ultralytics', 'ncnn', 'onnxruntime', 'picamera2'); "
             "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in heavy)))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         timeout=120, cwd=ROOT, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


SCHEMA = [  # (variant, key, type, default, options, min, optional): what the page offers
    ("chicago", "knocker_tie", "choice", "safe", ("safe", "penalised"), None, False),
    ("chicago", "knock_penalty", "integer", 15, None, 0, False),
    ("chicago", "elimination_total", "choice", 100, (100, 101), None, False),
    ("chicago", "instant_win", "choice", "seven_of_a_kind",
     ("seven_of_a_kind", "any_seven_card_meld", "off"), None, False),
    ("chicago", "knocker_shows", "choice", "best_seven", ("best_seven", "as_shown"), None, False),
    ("chicago", "duplicates_in_set", "boolean", True, (False, True), None, False),
    ("chicago", "min_naturals", "choice", 0, (0, 1), None, False),
    ("rummy", "ace", "choice", "low", ("low", "high_or_low"), None, False),
    ("rummy", "final_discard_required", "boolean", False, (False, True), None, False),
    ("rummy", "target", "integer", 150, None, 1, False),
    ("rummy", "hands", "integer", None, None, 1, True),
    ("rummy10", "target", "choice", 100, (100, 300, 500), None, False),
    ("rummy10", "exhausted_hand", "choice", "void", ("void", "lowest_hand_collects"), None,
     False),
    ("rummy500", "jokers", "choice", 2, (0, 2), None, False),
    ("rummy500", "decks", "choice", 1, (1, 2), None, False),
    ("rummy500", "scoring", "choice", "standard", ("standard", "5-10-15"), None, False),
    ("rummy500", "ace", "choice", "high_or_low", ("high_or_low", "low"), None, False),
    ("rummy500", "floating", "boolean", False, (False, True), None, False),
    ("rummy500", "target", "integer", 500, None, 1, False),
]


def test_every_setting_is_described_as_its_settings_class_validates_it() -> None:
    got = [(v.name, s.key, s.type, s.default, s.options, s.min, s.optional)
           for v in VARIANTS.entries() for s in v.schema]
    assert got == SCHEMA


def test_settings_refuse_true_for_a_number_unless_read_leniently_as_stored() -> None:
    with pytest.raises(RulesError):
        parse_settings("rummy", {"target": True})
    with pytest.raises(RulesError):
        variant("rummy").parse({"target": True})
    assert parse_settings("rummy", {"target": True}, lenient=True).target == 1
    assert variant("rummy").accepts("target", 0) is False
    assert variant("rummy").accepts("target", 200) is True


@pytest.mark.parametrize("key", ["target", "no_such_setting"])
def test_options_exist_only_for_a_setting_with_a_fixed_choice(key: str) -> None:
    with pytest.raises(RulesError, match="with a fixed choice"):
        variant("rummy").options(key)
    assert variant("rummy10").options("target") == (100, 300, 500)
