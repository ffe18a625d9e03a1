"""Durable game storage: an SQLite event log per game, replayed into rules-engine games."""

from scorekeeper.store.games import GameNotFound, GameOver, GameStore

__all__ = ["GameNotFound", "GameOver", "GameStore"]
