"""A refusal's body, `{"detail", "code", "params"}`, small whatever came in: each param cut
short and few, `detail` said in the language asked for. Apart from the app's error handlers
(web/http/errors.py) because the body-size middleware, which answers before the app, builds
the same body.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.rules.names import safe_json, safe_text
from scorekeeper.web.refusals.say import say

MAX_DETAIL = 1000    # characters in any detail
MAX_PART = 40        # characters of one part of a location (a key can be any size)
MAX_LIST = 12        # items of a list in params (cards, players)


def cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _param(value: Any) -> Any:
    """A param as the reply carries it: short, few, encodable (a name, a card, a number)."""
    if isinstance(value, str):
        return cut(safe_text(value), MAX_PART * 2)
    if isinstance(value, list | tuple):
        return [_param(v) for v in value[:MAX_LIST]]
    if isinstance(value, dict):
        return {str(k)[:MAX_PART]: _param(v) for k, v in list(value.items())[:MAX_LIST]}
    return safe_json(value)


def refusal_body(language: str, message: str, code: str, params: Mapping[str, Any],
                 **extra: Any) -> dict[str, Any]:
    """`{"detail", "code", "params"}`: the English message (the rules' own words), or the
    refusal said in `language` from its code and params."""
    params = {k: _param(v) for k, v in params.items() if v is not None}
    said = None if language == "en" else say(code, params, language)
    detail = cut(safe_text(said or message), MAX_DETAIL)
    return {"detail": detail, "code": code, "params": params, **extra}
