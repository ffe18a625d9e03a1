"""A deck profile: what the scorekeeper has learned about one physical deck design.

    <data dir>/decks/NAME/deck.json       the manifest (below)
    <data dir>/decks/NAME/examples/       labelled crops, one PNG each
    <data dir>/decks/NAME/examples.jsonl  one line a crop: file, card ("none": no index), group,
                                          source, box, photo
    <data dir>/decks/NAME/photos/         the whole photos the crops were cut from (JPEG): the
                                          install check reads held-back ones whole
    <data dir>/decks/NAME/cards-cls.onnx  the adapted classifier, once `deck adapt` beat the
                                          generic one on the deck's held-back examples (the
                                          manifest names the generic second classifier the
                                          check read beside it, which then reads beside it)
    <data dir>/decks/NAME/cards-det.onnx  the adapted detector, likewise (either or both)

A profile is read often (every scan of a game that names it) and written rarely, so every
write goes to a temporary file and is renamed over the old one: a reader sees the old
profile or the new one, never half of one.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scorekeeper.files import file_digest, write_atomic
from scorekeeper.vision.manifest import ManifestError, load_manifest

MANIFEST = "deck.json"
EXAMPLES = "examples"
EXAMPLE_LIST = "examples.jsonl"
PHOTOS = "photos"
CLASSIFIER = "cards-cls.onnx"
DETECTOR = "cards-det.onnx"
VERSION = 1
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")


class DeckError(ValueError):
    """A deck name, profile or input that cannot be used; the message says which and why."""


def decks_root(data_dir: Path) -> Path:
    return Path(data_dir) / "decks"


def check_name(name: str) -> str:
    """1–40 letters, digits, `_` or `-`, starting with a letter or digit: a folder name
    that is the same on every file system and can never climb out of the decks folder."""
    if not NAME.fullmatch(name):
        raise DeckError(f"deck name {name!r}: use 1-40 letters, digits, '_' or '-', "
                        "starting with a letter or digit")
    return name


def models_second(models: Path) -> str | None:
    """The SHA-256 of the second classifier the models name (model.json), or None when
    they name none or it cannot be read."""
    try:
        classifier = load_manifest(Path(models)).classifier
    except ManifestError:
        return None
    if classifier is None or classifier.second is None:
        return None
    return file_digest(Path(models) / classifier.second.onnx)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class DeckProfile:
    name: str
    folder: Path
    manifest: dict[str, Any] = field(default_factory=dict)

    @property
    def examples_dir(self) -> Path:
        return self.folder / EXAMPLES

    @property
    def photos_dir(self) -> Path:
        return self.folder / PHOTOS

    @property
    def classifier_path(self) -> Path | None:
        """The adapted classifier, or None while the deck has none (read with the generic)."""
        cls = self.manifest.get("classifier")
        return self.folder / cls["onnx"] if isinstance(cls, dict) and cls.get("onnx") else None

    @property
    def checked_second(self) -> str | None:
        """The SHA-256 of the generic second classifier the install check read beside the
        deck's classifier (the reader keeps that file, and only it, beside it), or None."""
        cls = self.manifest.get("classifier")
        second = cls.get("second") if isinstance(cls, dict) else None
        return second if isinstance(second, str) else None

    @property
    def pairs_second(self) -> bool:
        """Whether the models' second classifier reads beside the deck's classifier: where
        its install check read one beside it, that file or a later release's
        (`second_state`). The reader and the install check both ask this."""
        return self.checked_second is not None

    def second_state(self, models: Path) -> str:
        """What reads beside the deck's classifier. "alone": its install check read no
        second (a deck adapted before the check read pairs), so none does; "checked": the
        models' second is the very file its check read beside it; "newer": the models hold
        another (a later release's), which reads beside it in that one's stead (a deck so
        read was measured to read better than alone or generic, docs/decks.md; `deck adapt`
        checks the pair again); "none": the models name no second."""
        if not self.pairs_second:
            return "alone"
        shipped = models_second(models)
        if shipped is None:
            return "none"
        return "checked" if shipped == self.checked_second else "newer"

    @property
    def detector_path(self) -> Path | None:
        """The adapted detector (ONNX), or None while the deck reads with the generic one."""
        det = self.manifest.get("detector")
        return self.folder / det["onnx"] if isinstance(det, dict) and det.get("onnx") else None

    def examples(self) -> list[dict[str, Any]]:
        path = self.folder / EXAMPLE_LIST
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
                if line.strip()]

    def add_examples(self, rows: list[dict[str, Any]]) -> None:
        """Append example rows (their PNGs already written) and count them in the manifest."""
        with open(self.folder / EXAMPLE_LIST, "a", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row) + "\n")
        self.manifest["examples"] = len(self.examples())
        self.save()

    def replace_examples(self, rows: list[dict[str, Any]]) -> None:
        """Keep only `rows` (their PNGs already in place): one atomic rewrite of the list."""
        write_atomic(self.folder / EXAMPLE_LIST, "".join(json.dumps(r) + "\n" for r in rows))
        self.manifest["examples"] = len(rows)
        self.save()

    def install_models(self, files: dict[str, Path], check: dict[str, Any],
                       second: str | None = None) -> None:
        """Move a checked model set into place: `files` maps "detector" and/or "classifier"
        to its ONNX file. A network the set leaves out is removed from the deck: the check
        read with the generic one there. `second`: the digest of the generic second
        classifier the check read beside the deck's classifier (`checked_second`)."""
        now = _now()
        for kind, name in (("detector", DETECTOR), ("classifier", CLASSIFIER)):
            if kind in files:
                os.replace(files[kind], self.folder / name)
                self.manifest[kind] = {"onnx": name, "installed": now, "check": check}
                if kind == "classifier" and second is not None:
                    self.manifest[kind]["second"] = second
            elif self.manifest.pop(kind, None) is not None:
                (self.folder / name).unlink(missing_ok=True)
        self.save()

    def save(self) -> None:
        self.manifest.update(version=VERSION, name=self.name)
        write_atomic(self.folder / MANIFEST, json.dumps(self.manifest, indent=1) + "\n")

    def summary(self, models: Path | None = None) -> str:
        """One line: its examples and its model; with `models`, whether the generic second
        classifier still reads beside the deck's classifier."""
        cls = self.manifest.get("classifier")
        if isinstance(cls, dict):
            c = cls.get("check", {})
            model = (f"adapted {cls.get('installed', '?')[:10]}: held-back "
                     f"{c.get('adapted', 0):.1%} against the generic model's "
                     f"{c.get('generic', 0):.1%} "
                     f"({c.get('held_back', '?')} {c.get('unit', 'crops')})")
            state = self.second_state(models) if models is not None else None
            if state == "checked" or (state is None and self.checked_second):
                model += ", the generic second classifier beside it"
            elif state == "newer":
                model += (", a newer generic second classifier beside it than its check "
                          "read (`deck adapt` checks the pair again)")
            photos = c.get("photos")
            if isinstance(photos, dict) and "adapted" in photos:
                model += (f"; held-back photos, {photos.get('cards')} cards: exact/false "
                          f"{photos['adapted'][0]}/{photos['adapted'][1]} against the generic "
                          f"model's {photos['generic'][0]}/{photos['generic'][1]}")
        else:
            model = "not adapted yet (reads with the generic model)"
        det = self.manifest.get("detector")
        if isinstance(det, dict):
            c = det.get("check", {})
            model = (f"adapted {det.get('installed', '?')[:10]} (detector"
                     f"{' and classifier' if isinstance(cls, dict) else ''}): held-back scenes "
                     f"{c.get('adapted', 0):.1%} of cards read exactly against the generic "
                     f"model's {c.get('generic', 0):.1%}")
        return f"{self.name}: {self.manifest.get('examples', 0)} examples; {model}"


def open_deck(data_dir: Path, name: str) -> DeckProfile:
    """The profile NAME; DeckError when it does not exist or its manifest is unreadable."""
    folder = decks_root(data_dir) / check_name(name)
    path = folder / MANIFEST
    if not path.is_file():
        raise DeckError(f"no deck named {name!r} (in {decks_root(data_dir)})")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DeckError(f"deck {name!r}: its manifest {path} is unreadable ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("version") != VERSION:
        raise DeckError(f"deck {name!r}: {path} is not a version-{VERSION} deck manifest")
    return DeckProfile(name, folder, manifest)


def create_or_open(data_dir: Path, name: str) -> tuple[DeckProfile, bool]:
    """(profile, created?): `deck add` and `deck enrol` create a deck when it is new."""
    folder = decks_root(data_dir) / check_name(name)
    if (folder / MANIFEST).exists():
        return open_deck(data_dir, name), False
    (folder / EXAMPLES).mkdir(parents=True, exist_ok=True)
    profile = DeckProfile(name, folder, {"created": _now(), "examples": 0})
    profile.save()
    return profile, True


def list_decks(data_dir: Path) -> list[DeckProfile | DeckError]:
    """Every deck folder: its profile, or the error that makes it unusable."""
    root = decks_root(data_dir)
    if not root.is_dir():
        return []
    out: list[DeckProfile | DeckError] = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and NAME.fullmatch(p.name)):
        try:
            out.append(open_deck(data_dir, folder.name))
        except DeckError as exc:
            out.append(exc)
    return out


def remove_deck(data_dir: Path, name: str) -> Path:
    """Delete the deck's folder and everything in it (examples, model); returns the folder."""
    folder = decks_root(data_dir) / check_name(name)
    if not folder.is_dir():
        raise DeckError(f"no deck named {name!r} (in {decks_root(data_dir)})")
    shutil.rmtree(folder)
    return folder


def deck_for_reading(data_dir: Path, name: str | None) -> tuple[DeckProfile | None, str | None]:
    """(profile, warning) for reading with deck NAME. A missing or broken profile gives no
    profile and a warning to show: the scan goes on with the generic model."""
    if name is None:
        return None, None
    try:
        profile = open_deck(data_dir, name)
    except DeckError as exc:
        return None, f"{exc}; reading with the generic model"
    paths = [p for p in (profile.detector_path, profile.classifier_path) if p is not None]
    if not paths:
        return None, (f"deck {name!r} has no adapted model yet (run `scorekeeper deck adapt "
                      f"{name}`); reading with the generic model")
    for path in paths:
        if not path.is_file():
            return None, (f"deck {name!r}: its model {path} is missing; reading with the "
                          "generic model")
    return profile, None
