"""Durable game storage: an SQLite event log per game, replayed into rules-engine games."""

from scorekeeper.store.games import GameNotFound, GameOver, GameStore
from scorekeeper.store.requests import GameMoved, KeyReused, RequestKey, Written

__all__ = ["GameMoved", "GameNotFound", "GameOver", "GameStore", "KeyReused", "RequestKey",
           "Written"]
