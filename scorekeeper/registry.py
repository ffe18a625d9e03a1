"""One shape for everything chosen by name: a rules variant, a detector runtime, a camera.

As Frigate's detectors do it: each entry names itself and carries its typed config class (a
pydantic model) and what builds or runs it, so adding one is one table row, a setting or a
spec is validated by that class, and a wrong name is refused with the names that exist.
Entries are kept in the order they were added: that is the order people are shown them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from pydantic import BaseModel


class Entry(Protocol):
    """What a registry holds: a name and the config class that validates its settings."""

    @property
    def name(self) -> str: ...

    @property
    def config(self) -> type[BaseModel]: ...


E = TypeVar("E", bound=Entry)
F = TypeVar("F")


class RegistryError(LookupError):
    """A name that no entry has; the message lists the names that do exist."""


@dataclass(frozen=True)
class Plugin(Generic[F]):
    """A named implementation: its config class and the factory that builds it."""

    name: str
    config: type[BaseModel]
    factory: F


class Registry(Generic[E]):
    """Entries by name. Iterating gives the names (as a dict does); `entries()` the entries."""

    def __init__(self, kind: str, entries: Iterable[E] = (), *,
                 error: Callable[[str], Exception] = RegistryError,
                 show: Callable[[object], str] = repr) -> None:
        """`kind` names the entries in messages ("camera"); `error` is the exception an
        unknown name raises (a caller's own error type), `show` how the name is quoted."""
        self.kind = kind
        self._error = error
        self._show = show
        self._entries: dict[str, E] = {}
        for entry in entries:
            self.add(entry)

    def add(self, entry: E) -> E:
        """Add an entry; a second one under a taken name is a programming error."""
        if entry.name in self._entries:
            raise ValueError(f"{self.kind} {entry.name!r} is registered twice")
        self._entries[entry.name] = entry
        return entry

    def names(self) -> tuple[str, ...]:
        return tuple(self._entries)

    def entries(self) -> tuple[E, ...]:
        return tuple(self._entries.values())

    def get(self, name: object) -> E:
        """The entry called `name`; the registry's error, listing the known names, if none."""
        entry = self._entries.get(name) if isinstance(name, str) else None
        if entry is None:
            raise self._error(self.unknown(name))
        return entry

    def unknown(self, name: object) -> str:
        """The message for a name that no entry has."""
        return f"unknown {self.kind} {self._show(name)}; use one of {', '.join(self._entries)}"

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}: {', '.join(self._entries)})"
