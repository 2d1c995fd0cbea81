"""The static page's caching: assets under versioned names cached for a year, the HTML pages never.

The pages are served with every ``src="/static/…"`` and ``href="/static/…"`` given ``?v=<hash of the file>``;
an asset fetched with its current hash is ``immutable`` for a year, so a release changes the name and no
browser keeps an old script. Anything fetched without the right hash (a module another module imports, an
old page's link) is ``no-cache``: the browser revalidates it with its ETag (a 304 when unchanged).
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from urllib.parse import parse_qs

from starlette.responses import HTMLResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

IMMUTABLE = "public, max-age=31536000, immutable"
ASSET = re.compile(r'(?P<attr>\b(?:src|href)=")(?P<path>/static/[^"?#]+)"')


class VersionedStatic(StaticFiles):
    """Starlette's static files, with ``Cache-Control`` by version and :meth:`version` of each file."""

    def __init__(self, *, directory: Path) -> None:
        super().__init__(directory=directory)
        self.root = Path(directory)
        self._versions: dict[str, tuple[tuple[int, int], str]] = {}

    def version(self, relative: str) -> str | None:
        """The first 12 hex digits of the file's SHA-256 (recomputed when the file changes), None if absent."""
        path = self.root / relative
        try:
            stat = path.stat()
        except OSError:
            return None
        stamp = (stat.st_mtime_ns, stat.st_size)
        known = self._versions.get(relative)
        if known is None or known[0] != stamp:
            known = (stamp, hashlib.sha256(path.read_bytes()).hexdigest()[:12])
            self._versions[relative] = known
        return known[1]

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        query = parse_qs(scope["query_string"].decode("latin-1"))
        current = query.get("v") == [self.version(os.path.relpath(full_path, self.root))]
        response.headers["cache-control"] = IMMUTABLE if current else "no-cache"
        return response


def versioned(html: str, static: VersionedStatic) -> str:
    """``html`` with each ``/static/…`` reference given ``?v=<version>``."""

    def name(match: re.Match[str]) -> str:
        version = static.version(match["path"].removeprefix("/static/"))
        path = match["path"] if version is None else f"{match['path']}?v={version}"
        return f'{match["attr"]}{path}"'

    return ASSET.sub(name, html)


def index_page(static: VersionedStatic, name: str) -> Response:
    """One of the HTML pages, with versioned asset names, revalidated on every load."""
    html = (static.root / name).read_text(encoding="utf-8")
    return HTMLResponse(versioned(html, static), headers={"cache-control": "no-cache"})
