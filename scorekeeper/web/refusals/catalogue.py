"""The words for refusals, read from the page's own catalogues (static/locales/*.js): one
place for the words, so the page and `detail` say a refusal alike and a translation is
added once. The files are plain `'key': 'text',` lines, which `read` checks."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

LOCALES = Path(__file__).resolve().parent.parent / "static" / "locales"
# language tag: its catalogue (pt.js is European Portuguese; pt-BR.js changes what Brazil
# says otherwise)
FILES = {"en": "en.js", "es": "es.js", "pt-BR": "pt-BR.js", "pt-PT": "pt.js"}
LANGUAGES = tuple(FILES)

_IMPORT = re.compile(r"^import (\w+) from '\./([\w.-]+\.js)';$")
_SPREAD = re.compile(r"^\.\.\.(\w+),$")
# text: no quote, no backslash but a \uXXXX escape (a word joiner that keeps "A-2-3" whole)
_ENTRY = re.compile(r"^'([^'\\]+)': '((?:[^'\\]|\\u[0-9a-fA-F]{4})*)',$")
_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")
_FRAME = ("export default {", "};")


def read(path: Path) -> dict[str, str]:
    """A catalogue file's messages (a `...base,` line takes another file's first); a line
    of any other shape is an error, so a catalogue is never half read."""
    imports: dict[str, str] = {}
    out: dict[str, str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        text = line.strip()
        if not text or text.startswith("//") or text in _FRAME:
            continue
        if found := _IMPORT.match(text):
            imports[found[1]] = found[2]
        elif (found := _SPREAD.match(text)) and found[1] in imports:
            out.update(read(path.parent / imports[found[1]]))
        elif found := _ENTRY.match(text):
            out[found[1]] = _ESCAPE.sub(lambda m: chr(int(m[1], 16)), found[2])
        else:
            raise ValueError(f"{path.name}:{number}: not a 'key': 'text', line: {line!r}")
    return out


@cache
def words(language: str) -> dict[str, str]:
    """The catalogue of `language` (one of LANGUAGES), English where it lacks a message."""
    english = read(LOCALES / FILES["en"])
    return english if language == "en" else {**english, **read(LOCALES / FILES[language])}
