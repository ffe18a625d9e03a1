"""Security headers on every answer: the page, the API, errors, files and live streams.

The page loads only its own scripts and styles and talks only to this server, so the
policy is `'self'` with three needs of the page spelled out: `style` attributes (util.js
sets player colours and scan boxes with them), `data:` images (the favicon is inline) and
`blob:` images (the camera preview is a fetched JPEG shown through an object URL).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "img-src 'self' data: blob:",
    "style-src 'self' 'unsafe-inline'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
SECURITY_HEADERS = {
    b"content-security-policy": CONTENT_SECURITY_POLICY.encode(),
    b"x-frame-options": b"DENY",  # frame-ancestors for browsers that predate it
    b"referrer-policy": b"no-referrer",  # no address of this table is sent to other sites
    b"x-content-type-options": b"nosniff",
}


class SecurityHeaders:
    """ASGI middleware adding SECURITY_HEADERS to each response that lacks them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(k, v) for k, v in SECURITY_HEADERS.items() if k not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
