"""The installable page: its web app manifest and its service worker, both public.

The worker is served from the root so that it may look after the page at `/`. It is
sent with the shell's name (the server's version and a digest of the files) and the list
of files to keep, so an update of the server or of any page file replaces the phone's
copy, and a new page module is never left out of it.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from fastapi import APIRouter, Request, Response

from scorekeeper.web.http.auth import GuardedRoute, public
from scorekeeper.web.routes.pages import STATIC_DIR

MANIFEST = "manifest.webmanifest"
WORKER = "sw.js"
# the club's big screen is a page of its own; the worker is never a file it keeps
NOT_SHELL = ("club.", WORKER)

router = APIRouter(route_class=GuardedRoute)


def _doc(media_type: str, what: str, kind: str = "string"
         ) -> dict[int | str, dict[str, object]]:
    return {200: {"description": what, "content": {media_type: {"schema": {"type": kind}}}}}


@lru_cache(maxsize=1)
def shell_files() -> tuple[tuple[str, ...], str]:
    """The page's files as its URLs (the page itself at `/`), and a digest of them all."""
    digest = hashlib.sha256()
    urls = ["/"]
    for path in sorted(p for p in STATIC_DIR.rglob("*") if p.is_file()):
        rel = path.relative_to(STATIC_DIR).as_posix()
        if rel.startswith(NOT_SHELL):
            continue
        urls.append(f"/static/{rel}")
        digest.update(rel.encode() + b"\0" + path.read_bytes())
    return tuple(urls), digest.hexdigest()[:12]


@router.get("/manifest.webmanifest", responses=_doc("application/manifest+json",
                                                     "the web app manifest", "object"))
@public
def manifest() -> Response:
    """What a phone needs to install the page: its name, icons, colours and start."""
    return Response((STATIC_DIR / MANIFEST).read_bytes(), media_type="application/manifest+json",
                    headers={"Cache-Control": "no-cache"})


@router.get("/sw.js", responses=_doc("text/javascript", "the page's service worker"))
@public
def service_worker(request: Request) -> Response:
    """The worker, led by the shell's version and files (see the module's docstring).

    `no-cache` makes the browser ask each time whether it changed, as it must for a
    worker it would otherwise keep up to a day.
    """
    urls, digest = shell_files()
    shell = {"version": f"{request.app.version}-{digest}", "files": list(urls)}
    head = f"self.SHELL = {json.dumps(shell)};\n"
    body = head + (STATIC_DIR / WORKER).read_text(encoding="utf-8")
    return Response(body, media_type="text/javascript",
                    headers={"Cache-Control": "no-cache"})
