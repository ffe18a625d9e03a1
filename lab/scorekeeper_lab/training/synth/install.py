"""Render every catalogued deck into the art cache and record its metadata and licence.

Output (never committed): `<cards>/<deck>/<code>.png` (BGRA, FACE_WIDTH wide), a per-deck
`deck.json`, the merged `<cards>/decks.json`, and debug montages in `<cards>/montage/`.
A deck already rasterised is not rendered again; only its index boxes are re-found.
"""

from __future__ import annotations

import json
import sys
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scorekeeper_lab.training.synth import catalog, licences, montage, raster
from scorekeeper_lab.training.synth.cards import (
    BACK,
    FACE_KEYS,
    aisleriot_ids,
    kde_ids,
    kennard_file,
)
from scorekeeper_lab.training.synth.index_box import find_indices

FORMAT = 1


def _candidates(src: catalog.DeckSource, key: str,
                npm_images: Path) -> list[tuple[str, str | None]]:
    """(file, element id) pairs to try for one face key, in order."""
    if src.kind == "kennard":
        if key == BACK:
            return [(str(npm_images / "back.svg"), None)]
        stem = kennard_file(key)
        return [(str(npm_images / src.path / f"{stem}.svg"), None)] if stem else []
    if key == BACK:
        return [(src.path, "back")]
    ids = aisleriot_ids(key) if src.kind == "aisleriot" else kde_ids(key)
    return [(src.path, i) for i in ids]


def _render(cands: list[tuple[str, str | None]], zoom: float | None) -> np.ndarray | None:
    """First candidate that renders; `zoom` is the deck's (probed once), else per card."""
    for path, eid in cands:
        if not Path(path).exists():
            continue
        z = zoom or raster.zoom_for(path, eid)
        img = raster.rasterize(path, eid, z) if z else None
        if img is not None:
            return raster.to_face(img)
    return None


def _licence(src: catalog.DeckSource, npm_pkg: Path) -> str:
    if src.kind == "kennard":
        return licences.npm_licence(npm_pkg)
    return licences.debian_licence(src.package, licences.upstream_path(src.kind, src.path))


def _rasterise_deck(src: catalog.DeckSource, deck_dir: Path, npm_images: Path) -> None:
    """Render every face and the back to PNG; a `rendered.ok` marker makes this run once."""
    if (deck_dir / "rendered.ok").exists():
        return
    deck_dir.mkdir(parents=True, exist_ok=True)
    probe = _candidates(src, "AS", npm_images)[0]
    zoom = raster.zoom_for(*probe) if Path(probe[0]).exists() else None
    for key in (*FACE_KEYS, BACK):
        img = _render(_candidates(src, key, npm_images), zoom if src.kind != "kennard" else None)
        if img is not None:
            cv2.imwrite(str(deck_dir / f"{key}.png"), img)
    (deck_dir / "rendered.ok").write_text("ok\n")


def render_deck(src: catalog.DeckSource, out: Path, npm_pkg: Path) -> dict[str, Any] | None:
    """Rasterise one deck (once), then find its index boxes (always: it is cheap, and the
    finder may have improved); None when the source is missing or incomplete."""
    deck_dir = out / src.name
    if src.kind != "kennard" and not Path(src.path).exists():
        return None
    _rasterise_deck(src, deck_dir, npm_pkg / "src" / "images")
    faces: dict[str, Any] = {}
    images: dict[str, np.ndarray] = {}
    for key in (*FACE_KEYS, BACK):
        path = deck_dir / f"{key}.png"
        img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED) if path.exists() else None
        if img is None:
            continue
        images[key] = img
        if key == BACK:
            continue
        boxes, agree = find_indices(img, joker=key.startswith("JK"), big=src.big_index)
        faces[key] = {"file": f"{key}.png", "size": [img.shape[1], img.shape[0]],
                      "index": [list(b) for b in boxes], "corner_agreement": round(agree, 3)}
    if BACK not in images or len(faces) < 52:
        print(f"  {src.name}: only {len(faces)} faces / back={BACK in images}: dropped",
              file=sys.stderr)
        return None
    meta = {"format": FORMAT, "name": src.name, "package": src.package,
            "source": src.path, "family": src.family, "licence": _licence(src, npm_pkg),
            "back": f"{BACK}.png", "faces": faces}
    (deck_dir / "deck.json").write_text(json.dumps(meta, indent=1))
    montage.write_deck_montages(out / "montage", src.name, images, faces)
    return meta


def _job(args: tuple[catalog.DeckSource, Path, Path]) -> dict[str, Any] | None:
    src, out, npm_pkg = args
    meta = render_deck(src, out, npm_pkg)
    if meta is not None:
        bad = [k for k, f in meta["faces"].items() if f["corner_agreement"] < 0.5]
        none = [k for k, f in meta["faces"].items() if not f["index"]]
        print(f"  {src.name}: {len(meta['faces'])} faces; no index: {none or '-'}; "
              f"corners disagree: {bad or '-'}", file=sys.stderr, flush=True)
    return meta


def install(out: Path, npm_pkg: Path, workers: int = 2, test_decks: str | None = None) -> Path:
    """Render all decks, write `decks.json` with the split, return its path."""
    out.mkdir(parents=True, exist_ok=True)
    jobs = [(src, out, npm_pkg) for src in catalog.CATALOG]
    if workers > 1:
        with Pool(min(workers, 2)) as pool:
            metas = pool.map(_job, jobs, chunksize=1)
    else:
        metas = [_job(j) for j in jobs]
    decks = [m for m in metas if m is not None]
    names = [d["name"] for d in decks]
    families = {d["name"]: d["family"] for d in decks}
    test = catalog.test_deck_names(test_decks)
    train = catalog.split_names(names, families, "train", test)
    for d in decks:
        d["split"] = "test" if d["name"] in test else ("train" if d["name"] in train else "unused")
    summary = [{k: v for k, v in d.items() if k != "faces"} | {"faces": len(d["faces"])}
               for d in decks]
    index = {"format": FORMAT, "test_decks": list(test), "decks": summary}
    path = out / "decks.json"
    path.write_text(json.dumps(index, indent=1))
    return path
