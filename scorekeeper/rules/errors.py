"""The one error the rules raise for bad input; its message names the offending value.

Each refusal also carries a stable `code` and the `params` it names (players, cards,
numbers), so the web layer can say it in the player's language: the rules stay in English
and know no other (scorekeeper/web/refusals.py lists every code and what it carries).
"""

from __future__ import annotations

import copy
import json
import reprlib
from typing import Any

_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxlist, _REPR.maxdict, _REPR.maxtuple = 2, 4, 4, 4
_REPR.maxstring = _REPR.maxother = 40


class RulesError(ValueError):
    """A hand, card, player or setting that the rules refuse: `code` says which refusal,
    `params` its values (JSON: text, numbers, card codes, lists of them)."""

    code = "rules_refused"

    def __init__(self, message: str = "", code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.params: dict[str, Any] = params

    def within(self, prefix: str, **context: Any) -> RulesError:
        """The same refusal said of a hand or a player ("hand 4: …", params hand=4): a copy,
        so a subclass and its own fields survive."""
        said = copy.copy(self)
        said.args = (f"{prefix}: {self}",)
        said.params = {**context, **self.params}
        return said


def malformed(message: str, field: str, reason: str, *,
              kind: type[RulesError] = RulesError) -> RulesError:
    """A request the page never sends (a wrong JSON shape): one problem, as pydantic's are
    reported (`request_invalid`, with the field and the kind of problem)."""
    return kind(message, "request_invalid", problems=[{"field": field, "reason": reason}])


def shown(value: object, limit: int = 40) -> str:
    """A value for a message, cut short: a message names a value, it never echoes a whole
    input (reprlib stops early in a huge list); true, false and null as JSON writes them."""
    text = json.dumps(value) if value is None or isinstance(value, bool) else _REPR.repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"
