"""Licence of each deck, read from what its package ships rather than typed in by hand.

Debian packages carry a machine-readable (DEP-5) copyright file: the last `Files:` stanza
whose glob matches the deck's upstream path wins. The npm package names its own licence in
package.json, and its README says where the art comes from and under which licence.
"""

from __future__ import annotations

import fnmatch
import json
import re
from pathlib import Path

COPYRIGHT = "/usr/share/doc/{package}/copyright"


def _stanzas(text: str) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for block in re.split(r"\n\s*\n", text):
        fields: dict[str, str] = {}
        key = ""
        for line in block.splitlines():
            if line[:1].isspace() and key:
                fields[key] += "\n" + line.strip()
            elif ":" in line:
                key, _, value = line.partition(":")
                fields[key.strip()] = value.strip()
        if fields:
            out.append(fields)
    return out


def debian_licence(package: str, upstream_path: str) -> str:
    """Licence short name (plus any required notice) of `upstream_path` in `package`."""
    try:
        text = Path(COPYRIGHT.format(package=package)).read_text(encoding="utf-8")
    except OSError:
        return "unknown (copyright file missing)"
    best = "unknown"
    for st in _stanzas(text):
        if "Files" not in st or "License" not in st:
            continue
        globs = st["Files"].split()
        if any(fnmatch.fnmatch(upstream_path, g) for g in globs):
            best = st["License"].splitlines()[0]
            if "Comment" in st:
                best += f" ({' '.join(st['Comment'].split())})"
    return best


def upstream_path(kind: str, path: str) -> str:
    """Where a Debian-installed file sat in its upstream tree, for matching `Files:` globs."""
    p = Path(path)
    if kind == "kde":
        return f"carddecks/{p.parent.name}/{p.name}"
    return f"cards/{p.name}"


def npm_licence(package_dir: Path) -> str:
    """`MIT (package code); art CC0 by Adrian Kennard (per README)` style summary."""
    try:
        pkg = json.loads((package_dir / "package.json").read_text(encoding="utf-8"))
        readme = (package_dir / "README.md").read_text(encoding="utf-8")
    except OSError:
        return "unknown (package files missing)"
    art = "CC0" if "CC0" in readme else "see README"
    by = re.search(r"cards by ([A-Z][a-z]+ [A-Z][a-z]+)", readme)
    who = f" by {by.group(1)}" if by else ""
    return f"{pkg.get('license', 'unknown')} (package code); card art {art}{who} (per README)"
