"""A refusal in words, from its code and params: the page does the same from the same
catalogue (static/messages.js `refusalText`), so both name cards, variants and settings alike.

Cards are named as the page names them: a number card by its rank and suit symbol ("8♦"),
an ace or a face card in words ("dama de ouros"), the joker as the catalogue calls it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from scorekeeper.web.refusals.catalogue import words

SUIT_SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_LISTS = ("players", "variants", "decks")


def fill(text: str, values: Mapping[str, Any]) -> str:
    return _PLACEHOLDER.sub(lambda m: str(values.get(m[1], m[0])), text)


def message(w: Mapping[str, str], key: str, values: Mapping[str, Any]) -> str | None:
    """`key` filled in, its .one/.other form chosen by a numeric `n`; None if unknown."""
    n = values.get("n")
    if isinstance(n, int | float) and f"{key}.other" in w:
        key = f"{key}.one" if abs(n) == 1 else f"{key}.other"
    return fill(w[key], values) if key in w else None


def card_text(code: str, w: Mapping[str, str]) -> str:
    """A card code ("KD") as players say it: "king of diamonds"; a number card "8♦"."""
    if code == "JK":
        return w["cards.joker"]
    rank, suit = code[:-1], code[-1:]
    if suit not in SUIT_SYMBOL or not rank:
        return code
    if f"cards.rankName.{rank}" not in w:
        return f"{rank}{SUIT_SYMBOL[suit]}"
    return fill(w["cards.name"], {"rank": w[f"cards.rankName.{rank}"],
                                  "suit": w[f"suit.{suit}"].lower()})


def number(value: float, lang: str) -> str:
    text = f"{value:g}"
    return text if lang == "en" else text.replace(".", ",")


def one_of(options: list[Any], w: Mapping[str, str], lang: str) -> str:
    said = [number(o, lang) if isinstance(o, int | float) and not isinstance(o, bool)
            else str(o) for o in options]
    if len(said) < 2:
        return "".join(said)
    return f"{', '.join(said[:-1])} {w['refusal.or']} {said[-1]}"


def _problem(p: Mapping[str, Any], variant: str | None, w: Mapping[str, str], lang: str) -> str:
    values = {k: number(v, lang) if isinstance(v, int | float) else v for k, v in p.items()}
    values["options"] = one_of(list(p.get("options") or []), w, lang)
    what = message(w, f"reason.{p.get('reason')}", values) or w["reason.invalid"]
    setting = p.get("setting")
    field = (w.get(f"setting.{variant}.{setting}", str(setting)) if setting is not None
             else str(p.get("field", "")))
    return fill(w["refusal.problem"], {"field": field, "what": what})


def _values(params: Mapping[str, Any], w: Mapping[str, str], lang: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in params.items():
        if key == "card" and isinstance(value, str):
            out[key] = card_text(value, w)
        elif key == "cards" and isinstance(value, list):
            out[key] = ", ".join(card_text(str(c), w) for c in value)
        elif key == "variant":
            out[key] = w.get(f"variant.{value}", str(value))
        elif key == "variants" and isinstance(value, list):
            out[key] = one_of([w.get(f"variant.{v}", str(v)) for v in value], w, lang)
        elif key in _LISTS and isinstance(value, list):
            out[key] = ", ".join(map(str, value))
        elif key == "changes" and isinstance(value, list):
            out[key] = "; ".join(message(w, f"change.{c.get('change')}", c) or ""
                                 for c in value if isinstance(c, Mapping))
        elif key == "problems" and isinstance(value, list):
            said = [_problem(p, params.get("variant"), w, lang) for p in value
                    if isinstance(p, Mapping)]
            more = params.get("more")
            if isinstance(more, int) and more > 0:
                said.append(message(w, "refusal.more", {"n": more}) or "")
            out[key] = "; ".join(said)
        elif isinstance(value, int | float) and not isinstance(value, bool) and key != "n":
            out[key] = number(value, lang)
        else:
            out[key] = value
    return out


def say(code: str, params: Mapping[str, Any], lang: str) -> str | None:
    """The refusal in `lang`, or None when the catalogue has no words for `code`."""
    w = words(lang)
    values = _values(params, w, lang)
    text = message(w, f"refusal.{code}", values)
    if text is None:
        return None
    template = w.get(f"refusal.{code}", w.get(f"refusal.{code}.other", ""))
    if "player" in params and "{player}" not in template:
        text = fill(w["refusal.ofPlayer"], {"player": params["player"], "message": text})
    if "hand" in params:
        text = fill(w["refusal.inHand"], {"hand": params["hand"], "message": text})
    return text[:1].upper() + text[1:]
