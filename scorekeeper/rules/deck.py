"""Which cards a game's decks can hold, so an impossible reading is refused."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from scorekeeper.rules.cards import Card, CardError


@dataclass(frozen=True)
class DeckSpec:
    decks: int
    jokers: int  # jokers in the whole game, all decks together

    def allowed(self, card: Card) -> int:
        return self.jokers if card.is_joker else self.decks

    def holds(self, card: Card) -> bool:
        """Whether the decks have the card at all (no joker without jokers), so a card only
        offered as maybe seen is never one the game cannot have."""
        return self.allowed(card) > 0

    def too_many(self, cards: Iterable[Card]) -> list[Card]:
        """The cards that appear more often than the decks hold them (a misread, surely)."""
        return [card for card, count in Counter(cards).items() if count > self.allowed(card)]

    def check(self, cards: Iterable[Card]) -> None:
        """Raise CardError when the cards hold more copies of a card than the decks have."""
        for card, count in Counter(cards).items():
            allowed = self.allowed(card)
            if count <= allowed:
                continue
            if card.is_joker and self.jokers == 0:
                raise CardError("JK cannot exist: this game is played without jokers",
                                "card_no_jokers")
            raise CardError(f"{card} appears {count} times, but {self.describe()} "
                            f"{'holds' if self.decks == 1 else 'hold'} only {allowed}",
                            "card_too_many", card=str(card), count=count, allowed=allowed,
                            decks=self.decks)

    def describe(self) -> str:
        decks = "one deck" if self.decks == 1 else f"{self.decks} decks"
        return f"{decks} with {self.jokers} joker{'' if self.jokers == 1 else 's'}"
