"""The app most API tests drive in-process: a fresh data folder and a known admin token.

`tests/conftest.py` offers `client` to every test module; a module that needs another app
(a club server, a camera, a stricter client) defines its own `client`, which wins.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from scorekeeper.settings import Settings
from scorekeeper.web.app import create_app

TOKEN = "test-token"
ADMIN = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The app on the test's own data folder with TOKEN as its admin token (none from the
    environment), its start-up and shutdown run around the test."""
    app = create_app(Settings(data_dir=tmp_path, admin_token=None), token=TOKEN)
    with TestClient(app) as c:
        yield c
