"""Reply size and time for a ~8 MB body of bogus players on POST /api/games.

The error handler and the body models alone, with no body-size limit in front (the server
answers 413 to any JSON body over 1 MB before validating it): what validation itself costs.

    .venv/bin/python benchmarks/bench_validation.py
"""

from __future__ import annotations

import json
import tempfile
import time
import warnings
from pathlib import Path
from types import SimpleNamespace

from fastapi import FastAPI
from fastapi.testclient import TestClient

from scorekeeper.club.spelling import as_typed
from scorekeeper.settings import Settings
from scorekeeper.store import GameStore
from scorekeeper.web.deps import get_hub, get_settings, get_spelling, get_store
from scorekeeper.web.http import errors
from scorekeeper.web.live.hub import Hub
from scorekeeper.web.routes import games as api


def main() -> None:
    warnings.simplefilter("ignore")
    body = json.dumps({"variant": "chicago", "players": list(range(1_000_000))})
    app, folder = FastAPI(), Path(tempfile.mkdtemp())
    store, hub, settings = GameStore(folder / "g.db"), Hub(), Settings(data_dir=folder)
    app.dependency_overrides.update({get_store: lambda: store, get_hub: lambda: hub,
                                     get_settings: lambda: settings,
                                     get_spelling: lambda: as_typed})
    app.state.parts = SimpleNamespace(admin_token="t")  # what the routes' guard reads
    errors.install(app)
    app.include_router(api.router)
    with TestClient(app) as c:
        start = time.perf_counter()
        r = c.post("/api/games", content=body, headers={"Content-Type": "application/json",
                                                        "Authorization": "Bearer t"})
        took = time.perf_counter() - start
    print(f"body {len(body) / 1e6:.1f} MB -> {r.status_code}, reply {len(r.content)} bytes "
          f"in {took:.2f} s: {r.text[:100]}")


if __name__ == "__main__":
    main()
