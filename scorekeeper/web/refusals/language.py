"""The language a request asks for, from its Accept-Language header (RFC 9110 §12.5.4):
the most wanted of English, Spanish, Brazilian and European Portuguese, else English.

Plain `pt` is Brazilian (most speakers); pt-PT, and Portuguese of any other region (Angola,
Mozambique…), which write as Portugal does, is European.
"""

from __future__ import annotations

MAX_TAGS = 20  # a header lists a few languages; a flood of them is not read to its end


def match(tag: str) -> str | None:
    """The language we speak for one language tag, or None."""
    base, _, region = tag.strip().lower().partition("-")
    if base == "pt":
        return "pt-BR" if region in ("", "br") else "pt-PT"
    if base in ("en", "es"):
        return base
    return "en" if base == "*" else None


def _weight(params: list[str]) -> float:
    for param in params:
        name, _, value = param.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                q = float(value)
            except ValueError:
                return 0.0
            return q if 0 <= q <= 1 else 0.0
    return 1.0


def pick(header: str | None) -> str:
    """The language to answer in: the highest q-value we speak, the first listed on a tie."""
    ranked: list[tuple[float, int, str]] = []
    for i, item in enumerate((header or "").split(",")[:MAX_TAGS]):
        tag, *params = item.split(";")
        lang, q = match(tag), _weight(params)
        if lang is not None and q > 0:
            ranked.append((-q, i, lang))
    return min(ranked)[2] if ranked else "en"
