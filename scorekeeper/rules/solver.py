"""The optimal meld solver: the arrangement of a hand into melds with the least deadwood.

Exact, by dynamic programming over (cards still to place, wild cards still free). Each
natural card is either deadwood or part of one "core": a set or run of natural cards plus
the wild cards it needs to be a meld, and up to `cap` more wilds it could absorb. Wilds are
interchangeable in a meld, so only how many are used matters; the most valuable wilds are
the ones melded. Leftover wilds (three or more) form a meld of their own when allowed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, product

from scorekeeper.rules.cards import ACE, Card
from scorekeeper.rules.melds import MAX_RUN, MeldRules

ValueFn = Callable[[Card], int]


@dataclass(frozen=True)
class Solution:
    melds: tuple[tuple[Card, ...], ...]
    unmelded: tuple[Card, ...]
    deadwood: int


@dataclass(frozen=True)
class _Core:
    mask: int
    value: int
    need: int  # wilds it must have
    cap: int  # wilds it may take beyond `need`


def _set_cores(idx_by_code: dict[Card, list[int]], values: list[int], wilds: int,
               rules: MeldRules) -> list[_Core]:
    by_rank: dict[int, list[list[int]]] = defaultdict(list)
    for card, idxs in idx_by_code.items():
        by_rank[card.rank].append(idxs)
    cores = []
    for groups in by_rank.values():
        # every choice of copies: with two decks either 8C may be the one a set needs
        top = None if rules.duplicates_in_set else 1
        options = [[pick for c in range(len(g) + 1 if top is None else 2)
                    for pick in combinations(g, c)] for g in groups]
        for picks in product(*options):
            chosen = [i for pick in picks for i in pick]
            k = len(chosen)
            need = max(0, 3 - k)
            if k == 0 or need > wilds or k < rules.min_naturals or k + need > rules.max_set:
                continue
            mask = sum(1 << i for i in chosen)
            value = sum(values[i] for i in chosen)
            cap = wilds if rules.duplicates_in_set else rules.max_set - k - need
            cores.append(_Core(mask, value, need, cap))
    return cores


def _run_cores(idx_by_code: dict[Card, list[int]], values: list[int], wilds: int,
               rules: MeldRules) -> list[_Core]:
    by_suit: dict[str, dict[int, list[int]]] = defaultdict(dict)
    for card, idxs in idx_by_code.items():
        by_suit[card.suit][card.rank] = idxs
    found: dict[int, _Core] = {}
    layouts = [1] + ([14] if rules.ace_high else [])
    for ranks_map in by_suit.values():
        for ace_pos in layouts:
            # (position, copies of the card at that position), ascending
            slots = sorted(((ace_pos if r == ACE else r), idxs) for r, idxs in ranks_map.items())
            if ace_pos == 14 and ACE not in ranks_map:
                continue
            n = len(slots)
            for start in range(n):
                for end in range(start, n):
                    span = slots[end][0] - slots[start][0] + 1
                    if span > MAX_RUN:
                        break
                    inner = slots[start + 1:end]
                    length = max(3, span)
                    base_need = length - (end - start + 1)
                    if base_need > wilds:
                        continue
                    # the ends are always used; any inner positions may be left to wilds
                    for drop in range(min(len(inner), wilds - base_need) + 1):
                        for dropped in combinations(range(len(inner)), drop):
                            kept = [s for j, s in enumerate(inner) if j not in dropped]
                            ends = [slots[start]] + ([slots[end]] if end > start else [])
                            chosen = ends[:1] + kept + ends[1:]
                            if len(chosen) < rules.min_naturals:
                                continue
                            _add_run_cores(found, chosen, values, length - len(chosen), length)
    return list(found.values())


def _add_run_cores(found: dict[int, _Core], chosen: list[tuple[int, list[int]]],
                   values: list[int], need: int, length: int) -> None:
    """One core per choice of copies: with two decks the same run can use either 7H."""
    for copies in product(*(idxs for _, idxs in chosen)):
        mask = 0
        value = 0
        for i in copies:
            mask |= 1 << i
            value += values[i]
        core = _Core(mask, value, need, MAX_RUN - length)
        old = found.get(mask)
        if old is None or core.need < old.need:
            found[mask] = core


def solve(cards: Sequence[Card], rules: MeldRules, value: ValueFn) -> Solution:
    """The arrangement into melds that leaves the fewest unmelded points."""
    naturals = [c for c in cards if not rules.is_wild(c)]
    wild_cards = sorted((c for c in cards if rules.is_wild(c)), key=value, reverse=True)
    n_wild = len(wild_cards)
    values = [value(c) for c in naturals]
    wild_prefix = [0]
    for w in wild_cards:
        wild_prefix.append(wild_prefix[-1] + value(w))
    total = sum(values) + wild_prefix[-1]

    idx_by_code: dict[Card, list[int]] = defaultdict(list)
    for i, c in enumerate(naturals):
        idx_by_code[c].append(i)
    cores = _set_cores(idx_by_code, values, n_wild, rules)
    cores += _run_cores(idx_by_code, values, n_wild, rules)
    by_low: dict[int, list[_Core]] = defaultdict(list)
    for core in cores:
        by_low[(core.mask & -core.mask).bit_length() - 1].append(core)
    wild_meld_ok = rules.min_naturals == 0

    memo: dict[tuple[int, int], tuple[int, _Core | None, int]] = {}

    def best(mask: int, free: int) -> int:
        """Most points meldable from the naturals in `mask` with `free` wilds unused so far."""
        if mask == 0:
            if free >= 3 and wild_meld_ok:
                return wild_prefix[n_wild]
            return wild_prefix[n_wild - free]
        key = (mask, free)
        hit = memo.get(key)
        if hit is not None:
            return hit[0]
        low = mask & -mask
        top, choice, used = best(mask ^ low, free), None, 0
        for core in by_low[low.bit_length() - 1]:
            if core.mask & mask != core.mask or core.need > free:
                continue
            rest = mask ^ core.mask
            for k in range(core.need, min(free, core.need + core.cap) + 1):
                v = core.value + best(rest, free - k)
                if v > top:
                    top, choice, used = v, core, k
        memo[key] = (top, choice, used)
        return top

    full = (1 << len(naturals)) - 1
    melded = best(full, n_wild)
    return _rebuild(naturals, wild_cards, full, n_wild, memo, wild_meld_ok, total - melded)


def _rebuild(naturals: list[Card], wild_cards: list[Card], mask: int, free: int,
             memo: dict[tuple[int, int], tuple[int, _Core | None, int]], wild_meld_ok: bool,
             deadwood: int) -> Solution:
    melds: list[list[Card]] = []
    unmelded: list[Card] = []
    wild_iter = iter(wild_cards)
    while mask:
        low = mask & -mask
        _, core, used = memo[(mask, free)]
        if core is None:
            unmelded.append(naturals[low.bit_length() - 1])
            mask ^= low
            continue
        meld = [naturals[i] for i in range(len(naturals)) if core.mask >> i & 1]
        meld += [next(wild_iter) for _ in range(used)]
        melds.append(meld)
        mask ^= core.mask
        free -= used
    rest = list(wild_iter)
    if len(rest) >= 3 and wild_meld_ok:
        melds.append(rest)
    else:
        unmelded += rest
    return Solution(tuple(tuple(m) for m in melds), tuple(unmelded), deadwood)
