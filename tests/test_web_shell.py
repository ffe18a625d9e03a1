"""The installable page: the manifest, its icons and the service worker, open to any phone."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from scorekeeper.settings import Settings
from scorekeeper.web.app import create_app
from scorekeeper.web.routes.pages import STATIC_DIR
from scorekeeper.web.routes.shell import shell_files

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(Settings(data_dir=tmp_path), token="secret"))


def test_the_manifest_is_public_and_names_the_page(client: TestClient) -> None:
    r = client.get("/manifest.webmanifest")  # no token
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/manifest+json"
    m = r.json()
    assert m["start_url"] == "/" and m["scope"] == "/" and m["display"] == "standalone"
    page = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    theme = re.search(r'name="theme-color" content="([^"]+)"', page)
    assert theme and m["theme_color"] == theme.group(1)  # the page's own colour
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    sizes = set()
    for icon in m["icons"]:
        got = client.get(icon["src"])  # each icon from this server, with no token
        assert got.status_code == 200, icon["src"]
        assert got.headers["content-type"].startswith(icon["type"])
        if icon["type"] == "image/png":
            assert got.content[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = int.from_bytes(got.content[16:20]), int.from_bytes(got.content[20:24])
            assert icon["sizes"] == f"{width}x{height}"
            sizes.add(width)
    assert {192, 512} <= sizes  # what Android asks for to install


def test_the_worker_is_public_and_sent_with_its_shell(client: TestClient) -> None:
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r.headers["content-type"] == "text/javascript; charset=utf-8"
    assert r.headers["cache-control"] == "no-cache"  # an update is found at the next load
    head, _, body = r.text.partition("\n")
    shell = json.loads(head.removeprefix("self.SHELL = ").removesuffix(";"))
    assert body == (STATIC_DIR / "sw.js").read_text(encoding="utf-8")
    assert shell["version"].startswith(client.app.version + "-")  # type: ignore[attr-defined]
    files = shell["files"]
    assert files[0] == "/"
    for url in ("/static/app.js", "/static/offline.js", "/static/app.css",
                "/static/locales/pt-BR.js", "/static/icons/icon-192.png",
                "/static/manifest.webmanifest"):
        assert url in files, url
    assert not any("club." in f or f.endswith("/sw.js") for f in files)
    for url in files:  # every file it keeps is there to keep, and public
        assert client.get(url).status_code == 200, url
    # every module the page imports is kept, so a load offline finds them all
    for module in STATIC_DIR.glob("*.js"):
        for name in re.findall(r"from '\./([\w/.-]+)'", module.read_text(encoding="utf-8")):
            assert f"/static/{name}" in files, (module.name, name)


def test_a_changed_page_file_changes_the_shells_version(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from scorekeeper.web.routes import shell

    (tmp_path / "index.html").write_text("<p>one</p>")
    (tmp_path / "club.js").write_text("// the big screen's")
    monkeypatch.setattr(shell, "STATIC_DIR", tmp_path)
    shell.shell_files.cache_clear()
    try:
        first = shell.shell_files()
        (tmp_path / "index.html").write_text("<p>two</p>")
        shell.shell_files.cache_clear()
        second = shell.shell_files()
    finally:
        shell.shell_files.cache_clear()
    assert first[0] == second[0] == ("/", "/static/index.html")
    assert first[1] != second[1]
    assert shell_files()[0][0] == "/"  # the real folder again once the cache is cleared
