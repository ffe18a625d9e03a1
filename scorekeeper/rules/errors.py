"""The one error the rules raise for bad input; its message names the offending value."""

from __future__ import annotations

import json
import reprlib

_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxlist, _REPR.maxdict, _REPR.maxtuple = 2, 4, 4, 4
_REPR.maxstring = _REPR.maxother = 40


class RulesError(ValueError):
    """A hand, card, player or setting that the rules refuse."""


def shown(value: object, limit: int = 40) -> str:
    """A value for a message, cut short: a message names a value, it never echoes a whole
    input (reprlib stops early in a huge list); true, false and null as JSON writes them."""
    text = json.dumps(value) if value is None or isinstance(value, bool) else _REPR.repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"
