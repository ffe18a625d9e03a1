"""Each variant's settings, named as in RULES.md, with their defaults.

Unknown names and impossible values are refused with a message naming them, so a typo in
a house rule never silently plays the default.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from scorekeeper.rules.errors import RulesError


class _Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ChicagoSettings(_Settings):
    knocker_tie: Literal["safe", "penalised"] = "safe"
    knock_penalty: int = Field(15, ge=0)
    elimination_total: Literal[100, 101] = 100
    instant_win: Literal["seven_of_a_kind", "any_seven_card_meld", "off"] = "seven_of_a_kind"
    knocker_shows: Literal["best_seven", "as_shown"] = "best_seven"
    duplicates_in_set: bool = True
    min_naturals: Literal[0, 1] = 0


class RummySettings(_Settings):
    ace: Literal["low", "high_or_low"] = "low"
    final_discard_required: bool = False
    target: int = Field(150, gt=0)
    hands: int | None = Field(None, gt=0)


class Rummy10Settings(_Settings):
    target: int = Field(100, gt=0)
    exhausted_hand: Literal["void", "lowest_hand_collects"] = "void"

    @field_validator("target")
    @classmethod
    def _listed_target(cls, v: int) -> int:
        if v not in (100, 300, 500):
            raise ValueError("Rummy 10-card plays to 100, 300 or 500")
        return v


class Rummy500Settings(_Settings):
    jokers: Literal[0, 2] = 2
    decks: Literal[1, 2] = 1
    scoring: Literal["standard", "5-10-15"] = "standard"
    ace: Literal["high_or_low", "low"] = "high_or_low"
    floating: bool = False
    target: int = Field(500, gt=0)


SETTINGS: dict[str, type[_Settings]] = {
    "chicago": ChicagoSettings,
    "rummy": RummySettings,
    "rummy10": Rummy10Settings,
    "rummy500": Rummy500Settings,
}
VARIANTS = tuple(SETTINGS)


def parse_settings(variant: str, raw: object) -> _Settings:
    if variant not in SETTINGS:
        raise RulesError(f"unknown variant {variant!r}; use one of {', '.join(VARIANTS)}")
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise RulesError(f"settings must be an object, got {raw!r}")
    try:
        return SETTINGS[variant].model_validate(raw, strict=False)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            name = ".".join(str(p) for p in err["loc"]) or "settings"
            value = err.get("input")
            if err["type"] == "extra_forbidden":
                problems.append(f"unknown setting {name!r} for {variant}")
            else:
                problems.append(f"setting {name}={value!r}: {err['msg']}")
        raise RulesError("; ".join(problems)) from None
