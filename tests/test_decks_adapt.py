"""The CI smoke test: a tiny rendered deck enrolled and adapted in a minute or two of CPU
reads better than the generic model did, and a worse model is never installed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from scorekeeper_lab.cli import main as lab

from scorekeeper.cli import main

ROOT = Path(__file__).resolve().parents[1]
pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(not (ROOT / "models" / "cards-cls.pt").exists(),
                                reason="no card model")


def _index_accuracy(deck: Any, classifier: Any) -> float:
    """Exact reads of the labelled indices of a few rendered tables of `deck` (never the
    enrolment photos): the classifier's share of the reading."""
    from scorekeeper_lab.training.synth import tables

    from scorekeeper.vision.classifier import crop_index

    right = total = 0
    for i, name in enumerate(("melds-rummy", "fan", "chicago-knock")):
        image, truth = tables.render_table(tables.LAYOUTS[name]["spec"], deck, (960, 720),
                                           seed=50 + i)
        for card in truth["cards"]:
            if not card["indices"]:
                continue
            got = classifier.classify([crop_index(image, tuple(b)) for b in card["indices"]])
            right += sum(c == card["card"] and p >= 0.5 for c, p in got)
            total += len(got)
    return right / total


def test_enrol_adapt_and_read_better(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    from scorekeeper_lab.training.adapt import render_enrolment
    from scorekeeper_lab.training.synth.fallback import fallback_deck
    from scorekeeper_lab.training.synth.tables import with_joker

    from scorekeeper.decks.profile import open_deck
    from scorekeeper.vision.reader import CardReader

    monkeypatch.setenv("SCOREKEEPER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("SCOREKEEPER_CARDS", str(tmp_path / "no-art"))  # the drawn deck only
    deck = with_joker(fallback_deck())
    photos = []
    for n in (1, 2):
        photos.append(tmp_path / f"photo{n}.jpg")
        cv2.imwrite(str(photos[-1]), render_enrolment(deck, n, seed=11))
    assert main(["deck", "enrol", "drawn", *map(str, photos)]) == 0
    assert "created deck 'drawn'" in capsys.readouterr().out
    assert lab(["deck-adapt", "drawn", "--minutes", "1"]) == 0
    out = capsys.readouterr()
    assert "installed" in out.out and "left" in out.err
    profile = open_deck(tmp_path / "data", "drawn")
    check = profile.manifest["classifier"]["check"]
    assert check["adapted"] > check["generic"] or check["adapted"] == 1.0
    before = _index_accuracy(deck, CardReader().classifier)
    after = _index_accuracy(deck, CardReader(deck=profile).classifier)
    assert after > before, (before, after)
    # the deck's own reader; no deck named is the generic model, untouched
    assert main(["deck", "list"]) == 0
    assert "drawn: " in capsys.readouterr().out
    assert CardReader().deck is None and CardReader(deck=profile).deck == "drawn"
    # installed with the check that read it beside the generic second classifier, and so
    # read at the table: the manifest names that exact file
    from scorekeeper.files import file_digest

    assert profile.checked_second == file_digest(ROOT / "models" / "cards-cls-fans.onnx")
    assert CardReader(deck=profile).second is not None

    # a run whose model reads the held-back cards no better is not installed
    import scorekeeper_lab.training.adapt as adapt

    installed = profile.classifier_path.read_bytes()  # type: ignore[union-attr]
    real_check = adapt.crop_check

    def no_better(*args: object) -> dict[str, Any]:
        check = real_check(*args)  # type: ignore[arg-type]
        check["adapted_key"] = check["best_key"]
        return check

    monkeypatch.setattr(adapt, "crop_check", no_better)
    outcome = adapt.adapt_deck(profile, ROOT / "models", minutes=0.1)
    assert not outcome.installed and outcome.message.startswith("not installed")
    assert open_deck(tmp_path / "data", "drawn").classifier_path.read_bytes() == installed  # type: ignore[union-attr]


def test_the_check_scores_cards_and_no_index() -> None:
    from scorekeeper_lab.training.adapt_check import score

    labels = np.array([0, 1, 53])  # AC, 2C, none
    assert score(np.eye(54)[labels], labels) == {"accuracy": 1.0, "true_prob": 1.0, "false": 0}
    assert score(np.eye(54)[[1, 0, 2]], labels)["false"] == 3
    unsure = np.full((3, 54), 1 / 54)  # no sure answer: only the `none` crop is right
    assert score(unsure, labels)["accuracy"] == pytest.approx(1 / 3)


def test_the_check_weighs_the_second_where_the_reader_asks_it() -> None:
    """As `CardReader._second_look`: only crops the first answers `none` or under the card
    threshold, and only a card answer at the second's own threshold or more."""
    from scorekeeper_lab.training.adapt_check import CLASS_OF, Second, score

    class Stub:
        asked = 0

        def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
            self.asked += len(crops)
            return np.array([np.eye(54)[CLASS_OF[c]] * p + (1 - p) / 54
                             for c, p in (("3D", 0.9), ("4D", 0.6))][:len(crops)])

    stub = Stub()
    second = Second(stub, 0.8, "digest")
    labels = np.array([CLASS_OF[c] for c in ("KS", "3D", "4D")])
    first = np.array([np.eye(54)[CLASS_OF["KS"]],  # sure: never asked again
                      np.eye(54)[CLASS_OF["none"]],  # turned down: the second reads 3D (0.9)
                      np.full(54, 1 / 54)])  # unsure: the second's 4D at 0.6 is too unsure
    crops = np.zeros((3, 48, 48, 3), np.uint8)
    paired = second.beside(first, crops, 0.55)
    assert stub.asked == 2
    assert score(first, labels, 0.55)["accuracy"] == pytest.approx(1 / 3)
    assert score(paired, labels, 0.55)["accuracy"] == pytest.approx(2 / 3)
    assert np.array_equal(paired[[0, 2]], first[[0, 2]])


@pytest.mark.parametrize("checked", ["0" * 64, None])
def test_the_check_reads_the_current_deck_as_the_reader_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, checked: str | None) -> None:
    """The deck's current classifier, a rival of the candidate, is read with the generic
    second beside it wherever its own check read one (an earlier release's second too:
    `DeckProfile.pairs_second`), as the reader reads it; alone where its check read none."""
    import scorekeeper_lab.training.adapt_check as adapt_check
    from scorekeeper_lab.training.adapt_check import CLASS_OF, Second, crop_check

    import scorekeeper.vision.classifier as classifier
    from scorekeeper.decks.examples import STORE, centre_crop
    from scorekeeper.decks.profile import DeckProfile

    monkeypatch.setattr(adapt_check, "augment", lambda stored, rng: centre_crop(stored))
    labels = np.array([CLASS_OF["3D"]] * 2)

    def sure_of(card: str, n: int) -> np.ndarray:
        return np.eye(54)[[CLASS_OF[card]] * n]

    class Reads:  # the second: the truth
        def __init__(self, *args: object) -> None:
            pass

        def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
            return sure_of("3D", len(crops))

    class TurnsDown(Reads):  # the deck's current classifier
        def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
            return sure_of("none", len(crops))

    # the generic and the candidate networks: sure of the wrong card, so never asked again
    monkeypatch.setattr(adapt_check, "probabilities",
                        lambda model, crops: sure_of("KS", len(crops)))
    monkeypatch.setattr(classifier, "IndexClassifier", TurnsDown)
    (tmp_path / "cards-cls.onnx").write_bytes(b"stand-in")
    entry: dict[str, Any] = {"onnx": "cards-cls.onnx"}
    if checked is not None:
        entry["second"] = checked
    profile = DeckProfile("home", tmp_path, {"classifier": entry})
    stored = [np.full((STORE, STORE, 3), 128, np.uint8) for _ in labels]
    second = Second(Reads(), 0.8, "1" * 64)  # a newer second than the one it was checked with
    check = crop_check(None, None, profile, stored, labels, [0, 1], 0.55, second=second)
    assert check["generic"] == check["adapted"] == 0.0
    assert check["best"] == "current"
    # the current classifier turns every crop down: with the second beside it, all right
    assert check["best_accuracy"] == (0.0 if checked is None else 1.0)


def test_the_check_reads_each_held_back_index_in_fans_too(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """The crop check asks for the held-back indices under other cards of the deck, as a
    tight fan lays them: the deck in fans is what adapting learns."""
    import scorekeeper_lab.training.adapt_check as adapt_check
    from scorekeeper_lab.training.adapt_check import CHECK_FAN_LOOKS, CLASS_OF, fan_looks

    from scorekeeper.decks.examples import STORE, centre_crop
    from scorekeeper.vision.classifier import CROP

    # the camera's look (`augment`) set aside, so what the cards laid over it do shows
    monkeypatch.setattr(adapt_check, "augment", lambda stored, rng: centre_crop(stored))

    stored = [np.full((STORE, STORE, 3), v, np.uint8) for v in (90, 150, 200, 240)]
    for img in stored:
        img[40:56, 44:52] = 0  # an index's ink, upright
    labels = np.array([CLASS_OF[c] for c in ("3D", "none", "9C", "KS")])
    boxes = [(0.0, 0.0, 8.0, 16.0)] * 4
    looks = fan_looks(stored, labels, [0, 1, 2], boxes, np.random.default_rng(0))
    # each held-back index (not the `none` crop) CHECK_FAN_LOOKS times, labelled its card
    assert [y for _, y in looks] == [CLASS_OF["3D"]] * CHECK_FAN_LOOKS \
        + [CLASS_OF["9C"]] * CHECK_FAN_LOOKS
    assert all(c.shape == (CROP, CROP, 3) and c.dtype == np.uint8 for c, _ in looks)
    # covered by other cards of the deck: each of crop 0's looks shows the 9C's or the KS's
    # paper beside its own grey
    for c, _ in looks[:CHECK_FAN_LOOKS]:
        assert (c >= 180).any() and (c == 90).any()
    # a deck of one card has no neighbour to lay over it
    assert fan_looks(stored[:1], labels[:1], [0], boxes[:1], np.random.default_rng(0)) == []


# ---- the install check on whole photos -------------------------------------------------

def _rows(photo: str, cards: list[str], nones: int = 1) -> list[dict[str, Any]]:
    rows = [{"file": f"{photo}-{c}.png", "card": c, "group": f"{photo}:{c}", "photo": photo,
             "source": photo, "box": [10.0 * k, 0.0, 10.0 * k + 8, 12.0]}
            for k, c in enumerate(cards)]
    return rows + [{"file": f"{photo}-n{k}.png", "card": "none", "group": f"{photo}:none",
                    "photo": photo, "source": photo, "box": [0.0, 50.0, 8.0, 62.0]}
                   for k in range(nones)]


def test_whole_photos_are_held_back_only_where_the_rest_hold_their_cards() -> None:
    from scorekeeper_lab.training.adapt_check import split_examples

    clubs, hearts = ["AC", "2C", "3C", "4C", "5C"], ["AH", "2H", "3H", "4H", "5H"]
    # two enrolment photos are the deck's two halves: neither can be spared, so physical
    # cards are held back and both photos are read, exactness counted on those cards
    two = _rows("p1", clubs) + _rows("p2", hearts)
    s = split_examples(two, {"p1", "p2"}, seed=0)
    assert not s.whole and s.photos == ["p1", "p2"]
    assert {two[i]["group"] for i in s.back}.isdisjoint({two[i]["group"] for i in s.train})
    # a repeated sheet and scans: whole photos held back, never the only photo of a card
    many = two + _rows("p3", clubs) + _rows("s1", ["AC", "AH"]) + _rows("s2", ["2C", "2H"])
    for seed in range(8):
        s = split_examples(many, {"p1", "p2", "p3", "s1", "s2"}, seed)
        assert s.whole and len(s.photos) == 1 and "p2" not in s.photos
        assert {many[i]["photo"] for i in s.back} == set(s.photos)
        assert set(s.photos).isdisjoint(many[i]["photo"] for i in s.train)
    # photos not kept (a deck enrolled before they were) are never held back whole
    assert split_examples(many, set(), 0).photos == []


def test_a_whole_deck_photo_is_held_back_counting_the_cards_the_other_shows() -> None:
    """Two photos of the whole deck in fans, each hiding a card or two the other shows:
    neither holds every card of the other, yet the deck's gain is in cards seen again, so
    one is held back whole and exactness counts on the cards the other photo shows."""
    from scorekeeper_lab.training.adapt_check import held_photos, split_examples

    deck = [f"{r}{s}" for s in "CDHS" for r in ("A", "2", "3", "4", "5")]
    first, second = deck[:-1], deck[1:]  # the first hides 5S, the second AC
    rows = _rows("p1", first) + _rows("p2", second)
    for seed in range(4):
        s = split_examples(rows, {"p1", "p2"}, seed)
        assert s.whole and len(s.photos) == 1
        held = s.photos[0]
        other = first if held == "p2" else second
        shown = second if held == "p2" else first
        assert s.counted == frozenset(shown) & frozenset(other)
        assert {rows[i]["photo"] for i in s.back} == {held}
        assert {rows[i]["photo"] for i in s.train} == {"p1", "p2"} - {held}

        class Profile:
            photos_dir = Path("photos")

        (photo,) = held_photos(Profile(), rows, s)  # type: ignore[arg-type]
        counted = {code for code, _, counts in photo.cards if counts}
        assert counted == set(shown) & set(other) and len(counted) == len(deck) - 2
    # when the others show under 3/4 of a photo's cards, physical cards are held back
    half = _rows("p1", deck[:12]) + _rows("p2", deck[6:])
    assert not split_examples(half, {"p1", "p2"}, 0).whole


def test_the_photo_check_counts_exact_and_false_cards() -> None:
    from types import SimpleNamespace

    from scorekeeper_lab.training.adapt_check import match_cards

    def read(card: str, *centres: tuple[float, float], conf: float = 0.9) -> SimpleNamespace:
        return SimpleNamespace(card=card, confidence=conf, indices=[
            SimpleNamespace(det=SimpleNamespace(centre=c)) for c in centres])

    truth = [("AC", [(0.0, 0.0, 10.0, 10.0), (90.0, 90.0, 100.0, 100.0)], True),
             ("2C", [(20.0, 0.0, 30.0, 10.0)], False),  # trained on: its exactness not counted
             ("3C", [(40.0, 0.0, 50.0, 10.0)], True)]
    assert match_cards([read("AC", (5, 5), (95, 95)), read("2C", (25, 5)),
                        read("3C", (45, 5))], truth) == (2, 0)
    # one index read twice (a detector finding it twice): the second is false
    assert match_cards([read("AC", (5, 5)), read("AC", (95, 95), conf=0.8)], truth) == (1, 1)
    # a wrong card, a card on no labelled card, a wrong card where exactness is not counted
    assert match_cards([read("4C", (45, 5)), read("AC", (70, 70)), read("3C", (25, 5))],
                       truth) == (0, 3)


def test_a_model_worse_on_either_count_is_refused() -> None:
    from scorekeeper_lab.training.adapt_check import Reads, refusal
    from scorekeeper_lab.training.adapt_scenes import choose_mix

    generic = Reads(53, 53, 1)
    assert refusal(Reads(53, 53, 1), {"generic": generic}) is None
    assert "false cards" in str(refusal(Reads(53, 53, 2), {"generic": generic}))
    assert "exactly" in str(refusal(Reads(53, 52, 0), {"generic": generic}))
    assert "current" in str(refusal(Reads(53, 53, 1), {"generic": generic,
                                                       "current": Reads(53, 53, 0)}))
    # deck-a2 (docs/decks.md): its adapted detector read the rendered held-back scenes
    # better (384 exact, 12 false against the generic model's 379, 13) and was installed,
    # then read 21 cards twice on game tables. Its networks put through the check:
    scenes = {("classifier", "detector"): (384, 12), ("classifier",): (378, 14),
              ("detector",): (374, 14)}
    # enrolled from 5 photos, one held back whole: the detector finds an index twice there
    reads = {("classifier", "detector"): Reads(27, 26, 2), ("classifier",): Reads(27, 27, 1),
             ("detector",): Reads(27, 26, 2)}
    assert choose_mix(scenes, (379, 13), reads, {"generic": Reads(27, 27, 1)}, True) == ()
    # from 2 photos none can be held back whole, and both read as the generic model does:
    # no detector is installed on that evidence (nor a classifier without a gain)
    two = {("classifier", "detector"): Reads(11, 11, 1), ("classifier",): Reads(11, 11, 1),
           ("detector",): Reads(11, 11, 2)}
    assert choose_mix(scenes, (379, 13), two, {"generic": Reads(11, 11, 1)}, False) == ()
    assert choose_mix(scenes, (377, 14), two, {"generic": Reads(11, 11, 1)}, False) == \
        ("classifier",)
    # without kept photos a detector is never installed; a classifier may be, on the scenes
    assert choose_mix(scenes, (377, 14), {}, {}, False) == ("classifier",)
    # photos held back whole read no worse, the scenes better: the best mix on the photos
    reads[("classifier", "detector")] = Reads(27, 27, 0)
    assert choose_mix(scenes, (379, 13), reads, {"generic": Reads(27, 27, 1)}, True) == \
        ("classifier", "detector")


def test_a_worse_classifier_is_never_installed(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A classifier that misreads cards, planted where the trained one would be, with a
    crop check claiming a gain: the held-back photos, read whole, refuse it."""
    import scorekeeper_lab.training.adapt as adapt
    from scorekeeper_lab.training.synth.fallback import fallback_deck
    from scorekeeper_lab.training.synth.tables import with_joker

    from scorekeeper.decks.profile import open_deck

    monkeypatch.setenv("SCOREKEEPER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("SCOREKEEPER_CARDS", str(tmp_path / "no-art"))  # the drawn deck only
    deck = with_joker(fallback_deck())
    photos = []
    for n in (1, 2):
        photos.append(tmp_path / f"photo{n}.jpg")
        cv2.imwrite(str(photos[-1]), adapt.render_enrolment(deck, n, seed=11))
    assert main(["deck", "enrol", "drawn", *map(str, photos)]) == 0
    profile = open_deck(tmp_path / "data", "drawn")
    # the whole photos are kept with the crops, each named on its rows
    rows = profile.examples()
    assert {r["photo"] for r in rows} == {p.name for p in profile.photos_dir.glob("*.jpg")}
    assert len({r["photo"] for r in rows}) == 2

    def worse(model, next_batch, seconds, what, out, report=None) -> int:  # type: ignore[no-untyped-def]
        import torch

        with torch.no_grad():  # every card answered as the next card: AC → 2C, ...
            head = model[-1]
            head.weight[:53] = torch.roll(head.weight[:53].clone(), 1, dims=0)
            head.bias[:53] = torch.roll(head.bias[:53].clone(), 1, dims=0)
        return 1

    real_check = adapt.crop_check

    def claims_a_gain(*args: object) -> dict[str, Any]:
        check = real_check(*args)  # type: ignore[arg-type]
        check["adapted_key"] = (2.0, 0)  # better than any rival could read the crops
        return check

    monkeypatch.setattr(adapt, "fine_tune", worse)
    monkeypatch.setattr(adapt, "crop_check", claims_a_gain)
    outcome = adapt.adapt_deck(profile, ROOT / "models", minutes=0.1)
    assert not outcome.installed, outcome.message
    assert "held-back photos" in outcome.message
    photos_check = outcome.check["photos"]
    assert photos_check["adapted"][1] > photos_check["generic"][1]  # false cards
    assert profile.classifier_path is None and not (profile.folder / "cards-cls.onnx").exists()
    assert not (profile.folder / ".adapt-cls").exists()


def test_a_photo_is_forgotten_with_its_last_example(tmp_path: Path) -> None:
    from scorekeeper.decks.examples import Example, cap_learned, delete_learned, store
    from scorekeeper.decks.profile import create_or_open

    profile, _ = create_or_open(tmp_path, "home")
    image = np.full((120, 160, 3), 90, np.uint8)
    card = [Example("QD", (10, 10, 40, 60), "g"), Example("none", (90, 10, 120, 60), "n")]
    store(profile, image, card, "enrol:p1.jpg")
    for k in range(3):
        store(profile, image, card, f"scan:1:{k}")
    store(profile, image, [Example("none", (90, 10, 120, 60), "n")], "scan:1:3")  # no card
    assert len(list(profile.photos_dir.glob("*.jpg"))) == 4
    assert cap_learned(profile, 3) == 4  # the two oldest scans' examples, and their photos
    assert {r["photo"] for r in profile.examples() if "photo" in r} == \
        {p.name for p in profile.photos_dir.glob("*.jpg")}
    assert len(list(profile.photos_dir.glob("*.jpg"))) == 2
    delete_learned(profile)
    assert [p.name for p in profile.photos_dir.glob("*.jpg")] == [profile.examples()[0]["photo"]]


def test_game_tables_become_a_labels_file_as_confirmed_scans_store_them(
        tmp_path: Path) -> None:
    """The curve's scans (docs/decks.md): the reader's boxes, the labels' codes, nothing
    the reader did not find; `deck add` takes the file as it is."""
    from scorekeeper_lab.training.scan_labels import write_scans
    from scorekeeper_lab.training.synth import games
    from scorekeeper_lab.training.synth.fallback import fallback_deck

    from scorekeeper.decks.labels import read_labels

    games.render_games(tmp_path / "tables", 2, [fallback_deck()], games.SETUPS["a3"], seed=3,
                       players=(2, 2))
    got = write_scans(tmp_path / "tables", 5, tmp_path / "out" / "scans.jsonl")
    assert got["scans"] == 2 and 0 < got["cards"] <= got["labelled"]
    photos = read_labels(tmp_path / "out" / "scans.jsonl")
    assert sum(len(p.cards) for p in photos) == got["cards"]
    for photo in photos:
        truth = {o["card"] for o in json.loads(
            (tmp_path / "tables" / "cards" / f"{photo.path.stem}.json").read_text())}
        assert {c for c, _ in photo.cards} <= truth and photo.unboxed == []
    # --unboxed: the cards the reader missed too, without a box, as the server keeps them
    both = write_scans(tmp_path / "tables", 5, tmp_path / "out" / "both.jsonl", unboxed=True)
    assert both["cards"] == got["cards"] and both["cards"] + both["unboxed"] == got["labelled"]
    assert sum(len(p.unboxed) for p in read_labels(tmp_path / "out" / "both.jsonl")) == \
        both["unboxed"]


def test_learning_the_deck_in_fans_renders_it_tight_with_readable_corners(
        tmp_path: Path) -> None:
    from scorekeeper_lab.training import adapt_scenes
    from scorekeeper_lab.training.synth.compose import READABLE
    from scorekeeper_lab.training.synth.fallback import fallback_deck

    adapt_scenes._render(tmp_path / "plain", 1, 0, [fallback_deck()])
    adapt_scenes._render(tmp_path / "fans", 1, 0, [fallback_deck()], READABLE)
    plain = json.loads((tmp_path / "plain" / "dataset.json").read_text())["style"]
    fans = json.loads((tmp_path / "fans" / "dataset.json").read_text())["style"]
    assert not plain["readable"] and plain["tight_fans"] == 0.0
    assert fans["readable"] and fans["tight_fans"] == READABLE.tight_fans > 0


def test_the_runtime_s_deck_adapt_runs_the_lab_s_command(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """The runtime never imports the lab: `scorekeeper deck adapt` runs its command."""
    from scorekeeper.decks import adapting

    ran: list[list[str]] = []
    monkeypatch.setattr(adapting, "unavailable", lambda models: None)
    monkeypatch.setattr("subprocess.call", lambda cmd: ran.append(cmd) or 0)
    assert main(["deck", "adapt", "home", "--minutes", "2", "--seed", "3"]) == 0
    assert ran[0][1:] == ["-m", "scorekeeper_lab", "deck-adapt", "home", "--minutes", "2.0",
                          "--seed", "3"]
    monkeypatch.setattr(adapting, "unavailable", lambda models: "no lab here")
    assert main(["deck", "adapt", "home"]) == 2
