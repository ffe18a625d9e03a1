"""The one error the rules raise for bad input; its message names the offending value."""

from __future__ import annotations


class RulesError(ValueError):
    """A hand, card, player or setting that the rules refuse."""
