"""Every route an app serves, routers included (FastAPI keeps an included router as one
entry of `app.routes`), for the tests that walk them all."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def all_routes(app: Any) -> Iterator[Any]:
    """The app's routes and mounts, each included router's own routes in its place."""
    for route in app.routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from all_routes(inner)
        else:
            yield route
