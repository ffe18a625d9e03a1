"""Player names: what a valid name is, and how a name stored before the check is shown.

A name is printed on every phone and in every error message, so it must be text that can be
encoded (no lone surrogates), that cannot reorder the text around it (no bidirectional
controls) and that holds no control characters. Names are NFC-normalised so that "José"
typed on two keyboards is one player.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from scorekeeper.rules.errors import RulesError, malformed

MAX_NAME = 40
BIDI_CONTROLS = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_REPLACEMENT = "\ufffd"


def _is_surrogate(ch: str) -> bool:
    return "\ud800" <= ch <= "\udfff"


def _is_control(ch: str) -> bool:
    return unicodedata.category(ch) == "Cc"


def _problem(name: str) -> RulesError | None:
    """What is wrong with an already stripped, normalised name, in players' words."""
    if not name:
        return RulesError("a player name cannot be empty", "name_empty")
    if len(name) > MAX_NAME:
        return RulesError(f"a player name is at most {MAX_NAME} characters, this one has "
                          f"{len(name)}", "name_too_long", max=MAX_NAME, length=len(name))
    if any(_is_surrogate(ch) for ch in name):
        return RulesError("a player name holds a broken character (a lone surrogate)",
                          "name_broken")
    if any(ch in BIDI_CONTROLS for ch in name):
        return RulesError("a player name cannot hold text-direction control characters",
                          "name_control")
    if any(_is_control(ch) for ch in name):
        return RulesError("a player name cannot hold control characters (tabs, line "
                          "breaks…)", "name_control")
    return None


def json_kind(value: object) -> str:
    """What a JSON value is, in words: messages say what came, not the value itself."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    kinds = {int: "a number", float: "a number", list: "a list", dict: "an object", str: "text"}
    return next((w for t, w in kinds.items() if isinstance(value, t)), type(value).__name__)


def clean_name(raw: object) -> str:
    """The name as the game keeps it (stripped, NFC); RulesError if it is no valid name."""
    if not isinstance(raw, str):
        raise malformed(f"a player name must be text, got {json_kind(raw)}", "name", "text")
    name = unicodedata.normalize("NFC", raw).strip()
    problem = _problem(name)
    if problem:
        raise problem
    return name


def safe_text(text: str) -> str:
    """Text that can be encoded and shown: lone surrogates replaced, bidi and control
    characters dropped, NFC. A valid name comes back unchanged."""
    kept = "".join(_REPLACEMENT if _is_surrogate(ch) else ch for ch in text
                   if ch not in BIDI_CONTROLS and not _is_control(ch))
    if kept != text and not kept.strip():
        return _REPLACEMENT  # a name of nothing but controls still names someone
    return unicodedata.normalize("NFC", kept)


def safe_json(value: Any) -> Any:
    """`safe_text` applied to every string in a decoded JSON value (keys too)."""
    if isinstance(value, str):
        return safe_text(value)
    if isinstance(value, list):
        return [safe_json(v) for v in value]
    if isinstance(value, dict):
        return {safe_json(k): safe_json(v) for k, v in value.items()}
    return value
