"""Shared test helpers."""

from __future__ import annotations

from scorekeeper.rules.cards import Card, parse_cards


def cards(text: str) -> list[Card]:
    """'7H 7S 2C' → cards; the tables below read like the hands at the table."""
    return parse_cards(text.split())
