"""A REST proxy in front of the fake Discord, as nirn-proxy or twilight's http-proxy stand in front
of Discord: it forwards every request as it came (method, path, query, headers, body) and the
answer as it came back, and remembers what passed, so a test can see the bot went through it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiohttp
from aiohttp import web

# Hop-by-hop headers (RFC 9110 §7.6.1) and those aiohttp sets itself.
_NOT_FORWARDED = {"host", "connection", "keep-alive", "transfer-encoding", "content-length"}


class RestProxy:
    """Forwards `/api/...` to `upstream` (the fake's origin); `passed` lists `METHOD path`."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.passed: list[str] = []
        self.tokens: set[str] = set()
        self.port: int | None = None
        self._session: aiohttp.ClientSession | None = None
        self._runner: web.AppRunner | None = None

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    async def _forward(self, request: web.Request) -> web.StreamResponse:
        assert self._session is not None
        self.passed.append(f"{request.method} {request.path}")
        if "Authorization" in request.headers:
            self.tokens.add(request.headers["Authorization"])
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _NOT_FORWARDED}
        async with self._session.request(
            request.method,
            self.upstream + request.rel_url.path_qs,
            headers=headers,
            data=await request.read(),
            allow_redirects=False,
        ) as answer:
            body = await answer.read()
            out = {k: v for k, v in answer.headers.items() if k.lower() not in _NOT_FORWARDED}
            return web.Response(body=body, status=answer.status, headers=out)

    @classmethod
    @asynccontextmanager
    async def serve(cls, upstream: str) -> AsyncIterator[RestProxy]:
        proxy = cls(upstream)
        proxy._session = aiohttp.ClientSession(auto_decompress=False)
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/api/{tail:.*}", proxy._forward)
        proxy._runner = web.AppRunner(app, access_log=None)
        await proxy._runner.setup()
        site = web.TCPSite(proxy._runner, "127.0.0.1", 0)
        await site.start()
        proxy.port = proxy._runner.addresses[0][1]
        try:
            yield proxy
        finally:
            await proxy._runner.cleanup()
            await proxy._session.close()
