"""Each variant's settings, named as in RULES.md, with their defaults.

Unknown names and impossible values are refused with a message naming them, so a typo in
a house rule never silently plays the default. Which variant a settings class belongs to is
the registry's business (`scorekeeper.rules.variants`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal, TypeVar, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic.fields import FieldInfo
from pydantic_core import PydanticCustomError

from scorekeeper.rules.errors import RulesError, malformed, shown


class VariantSettings(BaseModel):
    """What every variant's settings are: frozen, and strict about unknown keys."""

    model_config = ConfigDict(extra="forbid", frozen=True)


S = TypeVar("S", bound=VariantSettings)

# The largest numbers a setting may take, so that every total stays an exact integer on the
# page (JavaScript's numbers are exact to 2**53): a game ends at its target, after its
# hands, or (Chicago) when a player reaches the elimination total, so a total is at most
# its bound plus one hand's points. Each is past anything a table plays.
MAX_TARGET = 100_000  # points: a thousand hands of 100; beyond it a target only means "never"
MAX_HANDS = 1_000     # hands of a game played to a number of hands: weeks of evenings
# a knock penalty of 101 puts any knocker out under either elimination total (100, 101);
# a larger one would mean nothing more
MAX_KNOCK_PENALTY = 101


class ChicagoSettings(VariantSettings):
    knocker_tie: Literal["safe", "penalised"] = "safe"
    knock_penalty: int = Field(default=15, ge=0, le=MAX_KNOCK_PENALTY)
    elimination_total: Literal[100, 101] = 100
    instant_win: Literal["seven_of_a_kind", "any_seven_card_meld", "off"] = "seven_of_a_kind"
    knocker_shows: Literal["best_seven", "as_shown"] = "best_seven"
    duplicates_in_set: bool = True
    min_naturals: Literal[0, 1] = 0


class RummySettings(VariantSettings):
    """Rummy; it shares its scoring with Rummy 10-card through the properties below."""

    variant: ClassVar[Literal["rummy", "rummy10"]] = "rummy"
    ace: Literal["low", "high_or_low"] = "low"
    final_discard_required: bool = False
    target: int = Field(default=150, gt=0, le=MAX_TARGET)
    hands: int | None = Field(default=None, gt=0, le=MAX_HANDS)

    @property
    def high_ace(self) -> bool:
        """An ace may be played high, so one left in hand costs 15."""
        return self.ace == "high_or_low"

    @property
    def hand_limit(self) -> int | None:
        """The game ends after this many hands, instead of at the target."""
        return self.hands

    @property
    def lowest_collects(self) -> bool:
        """A hand nobody went out of pays the lowest hand (Rummy always has a winner)."""
        return False


class Rummy10Settings(VariantSettings):
    variant: ClassVar[Literal["rummy", "rummy10"]] = "rummy10"
    target: int = Field(default=100, gt=0)
    exhausted_hand: Literal["void", "lowest_hand_collects"] = "void"

    @field_validator("target")
    @classmethod
    def _listed_target(cls, v: int) -> int:
        if v not in (100, 300, 500):
            raise PydanticCustomError("one_of", "Rummy 10-card plays to 100, 300 or 500",
                                      {"options": [100, 300, 500]})
        return v

    @property
    def high_ace(self) -> bool:
        return False

    @property
    def hand_limit(self) -> int | None:
        return None

    @property
    def lowest_collects(self) -> bool:
        return self.exhausted_hand == "lowest_hand_collects"


class Rummy500Settings(VariantSettings):
    jokers: Literal[0, 2] = 2
    decks: Literal[1, 2] = 1
    scoring: Literal["standard", "5-10-15"] = "standard"
    ace: Literal["high_or_low", "low"] = "high_or_low"
    floating: bool = False
    target: int = Field(default=500, gt=0, le=MAX_TARGET)


MAX_PROBLEMS = 3  # a reply names the first few problems, never thousands
_WHOLE = "must be a whole number"
_PLAIN = {
    "int_type": _WHOLE, "int_parsing": _WHOLE, "int_from_float": _WHOLE,
    "int_parsing_size": "is too large a number",
    "bool_type": "must be true or false", "bool_parsing": "must be true or false",
    "string_type": "must be text", "list_type": "must be a list",
    "dict_type": "must be an object", "model_type": "must be an object",
    "model_attributes_type": "must be an object", "missing": "is missing",
    "extra_forbidden": "is not known here", "string_too_short": "cannot be empty",
    "string_unicode": "holds a broken character (a lone surrogate)",
}
_BOUNDS = {
    "greater_than": "must be more than {gt}", "greater_than_equal": "must be {ge} or more",
    "less_than": "must be less than {lt}", "less_than_equal": "must be {le} or less",
    "literal_error": "must be {expected}", "too_long": "has too many entries: at most {max_length}",
    "too_short": "needs at least {min_length} entries",
    "string_too_long": "is too long: at most {max_length} characters",
}


# The kind of each problem, for the refusal's params (its words are the page's, by reason).
_REASONS = {
    "int_type": "whole", "int_parsing": "whole", "int_from_float": "whole",
    "int_parsing_size": "too_large", "bool_type": "bool", "bool_parsing": "bool",
    "string_type": "text", "list_type": "list", "dict_type": "object", "model_type": "object",
    "model_attributes_type": "object", "missing": "missing", "extra_forbidden": "unknown_key",
    "string_too_short": "empty", "string_unicode": "broken_char", "greater_than": "gt",
    "greater_than_equal": "ge", "less_than": "lt", "less_than_equal": "le",
    "literal_error": "one_of", "one_of": "one_of", "too_long": "too_many",
    "too_short": "too_few", "string_too_long": "too_long", "json_invalid": "json",
}
_REASON_CTX = ("gt", "ge", "lt", "le", "max_length", "min_length")


def problem_reason(error: Mapping[str, Any],
                   options: tuple[Any, ...] = ()) -> dict[str, Any]:
    """A pydantic error as `{"reason", ...}`: its kind and the bounds it names, never the
    value; `options` are the values a choice allows (pydantic only says them in English)."""
    kind, ctx = error.get("type", ""), error.get("ctx") or {}
    reason = _REASONS.get(kind, "invalid")
    out: dict[str, Any] = {"reason": reason}
    out.update({k: ctx[k] for k in _REASON_CTX if isinstance(ctx.get(k), int | float)})
    if reason == "one_of":
        out["options"] = list(ctx.get("options") or options)
    return out


def plain_message(error: Mapping[str, Any]) -> str:
    """A pydantic error in players' words, without the value that caused it."""
    kind, ctx = error.get("type", ""), error.get("ctx") or {}
    if kind == "one_of":
        return str(error.get("msg", "is not valid"))
    if kind in _PLAIN:
        return _PLAIN[kind]
    if kind in _BOUNDS:
        try:
            return _BOUNDS[kind].format(**ctx)
        except (KeyError, IndexError):
            pass
    if kind == "value_error" and ctx.get("error") is not None:
        return str(ctx["error"])
    return "is not valid"


def _expected(field: FieldInfo) -> str:
    """What a setting takes, for the message that refuses true/false in a number's place."""
    options = get_args(field.annotation) if get_origin(field.annotation) is Literal else ()
    if options:
        return ", ".join(shown(o) for o in options[:-1]) + f" or {shown(options[-1])}"
    return "a whole number"


def _options(field: FieldInfo | None) -> tuple[Any, ...]:
    annotation = field.annotation if field is not None else None
    return get_args(annotation) if get_origin(annotation) is Literal else ()


Problem = tuple[str, dict[str, Any]]  # the English words, and the params' problem


def _bool_problems(model: type[VariantSettings], raw: dict[str, Any]) -> list[Problem]:
    """Booleans where a number belongs (pydantic would read true as 1)."""
    return [(f"setting {name}={shown(raw[name])}: must be {_expected(field)}, not true or false",
             {"setting": name, **({"reason": "one_of", "options": list(_options(field))}
                                  if _options(field) else {"reason": "whole"})})
            for name, field in model.model_fields.items()
            if field.annotation is not bool and isinstance(raw.get(name), bool)]


def _refuse(variant: str, problems: list[Problem]) -> RulesError:
    more = len(problems) - MAX_PROBLEMS
    tail = [f"and {more} more problem{'' if more == 1 else 's'}"] if more > 0 else []
    return RulesError("; ".join([words for words, _ in problems[:MAX_PROBLEMS]] + tail),
                      "settings_invalid", variant=variant,
                      problems=[p for _, p in problems[:MAX_PROBLEMS]], more=max(more, 0))


def validate_settings(variant: str, model: type[S], raw: object, *,
                      lenient: bool = False) -> S:
    """`model` from JSON, refused in players' words; `lenient` reads settings stored before
    true/false was refused in a number's place as they were read then (true as 1), and
    numbers stored before they had a largest value as they were (a game of them still
    replays: refusing its settings now would lose it)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise malformed(f"settings must be an object, got {shown(raw)}", "settings", "object")
    unknown: list[Problem] = [(f"unknown setting {shown(k)} for {variant}",
                               {"setting": str(k)[:40], "reason": "unknown_key"})
                              for k in raw if k not in model.model_fields]
    problems = unknown or ([] if lenient else _bool_problems(model, raw))
    if problems:
        raise _refuse(variant, problems)
    try:
        return model.model_validate(raw, strict=False)
    except ValidationError as exc:
        if lenient and (over := _over_largest(exc, raw)):
            within = {k: v for k, v in raw.items() if k not in over}
            return model.model_validate(within, strict=False).model_copy(update=over)
        raise _refuse(variant, [
            (f"setting {'.'.join(str(p) for p in err['loc']) or 'settings'}"
             f"={shown(err.get('input'))}: {plain_message(err)}",
             {"setting": ".".join(str(p) for p in err["loc"]) or "settings",
              **problem_reason(err, _options(model.model_fields.get(str(err["loc"][0]))
                                             if err["loc"] else None))})
            for err in exc.errors()]) from None


def _over_largest(exc: ValidationError, raw: dict[str, Any]) -> dict[str, Any]:
    """The settings refused only for being over their largest value (whole numbers, as
    stored), when those are all the problems; else {}."""
    errors = exc.errors()
    over = {str(e["loc"][0]): raw.get(str(e["loc"][0])) for e in errors
            if e["type"] == "less_than_equal" and len(e["loc"]) == 1}
    whole = all(isinstance(v, int) and not isinstance(v, bool) for v in over.values())
    return over if len(over) == len(errors) and whole else {}
