"""`scorekeeper bench rules`: how long the meld solver takes per hand, typical and worst."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import TextIO

from scorekeeper.rules.cards import Card, full_deck, pip_value
from scorekeeper.rules.chicago import meld_rules
from scorekeeper.rules.settings import ChicagoSettings
from scorekeeper.rules.solver import solve

SHOE = full_deck() * 2


def _time(hands: list[list[Card]]) -> list[float]:
    rules = meld_rules(ChicagoSettings())
    times = []
    for hand in hands:
        start = time.perf_counter()
        solve(hand, rules, pip_value)
        times.append((time.perf_counter() - start) * 1000)
    return times


def _adversarial(rng: random.Random, n: int) -> dict[str, list[list[Card]]]:
    twos = [c for c in SHOE if c.rank == 2]
    others = [c for c in SHOE if c.rank != 2]

    def with_twos(k: int, size: int) -> Callable[[], list[Card]]:
        return lambda: rng.sample(twos, k) + rng.sample(others, size - k)

    def pairs(size: int) -> list[Card]:
        suit = rng.choice("CDHS")
        ranks = rng.sample(range(3, 14), size // 2)
        return [Card(r, suit) for r in ranks] * 2

    def one_suit(size: int) -> list[Card]:
        suit = rng.choice("CDHS")
        pool = [c for c in SHOE if c.suit == suit]
        return rng.sample(pool, size)

    makers: dict[str, Callable[[], list[Card]]] = {
        "7 cards, four 2s": with_twos(4, 7),
        "14 cards, four 2s": with_twos(4, 14),
        "14 cards, eight 2s": with_twos(8, 14),
        "14 cards, seven pairs in one suit": lambda: pairs(14),
        "14 cards, one suit (two decks)": lambda: one_suit(14),
        "14 random cards": lambda: rng.sample(SHOE, 14),
    }
    return {name: [make() for _ in range(n)] for name, make in makers.items()}


def run(hands: int = 10_000, seed: int = 1,
        out: TextIO | None = None) -> dict[str, dict[str, float]]:
    rng = random.Random(seed)
    cases = {"random 7-card Chicago hands": [rng.sample(SHOE, 7) for _ in range(hands)]}
    cases |= _adversarial(rng, max(1, hands // 50))
    _time(cases["random 7-card Chicago hands"][:200])  # warm up
    figures = {}
    for name, batch in cases.items():
        t = sorted(_time(batch))
        figures[name] = {"hands": len(t), "median_ms": statistics.median(t),
                         "p99_ms": t[min(len(t) - 1, int(len(t) * 0.99))], "worst_ms": t[-1]}
    if out is not None:
        out.write(f"{'case':40} {'hands':>6} {'median ms':>10} {'p99 ms':>8} {'worst ms':>9}\n")
        for name, f in figures.items():
            out.write(f"{name:40} {f['hands']:>6} {f['median_ms']:>10.3f} {f['p99_ms']:>8.3f} "
                      f"{f['worst_ms']:>9.3f}\n")
    return figures
