"""A real arcade server (uvicorn in a subprocess, a temporary database) and headless Debian Chromium."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator

import pytest

from tests.browser.kit import page_in
from tilegames.web.launch import ServerProcess

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SERVER_LOG_LINES = 60


class Server(ServerProcess):
    """The arcade under test: `kill()` is kill -9, `start()` brings it back on the same port and file."""

    def api(self, path: str) -> dict:
        with urllib.request.urlopen(f"{self.url}{path}", timeout=10) as answer:
            return json.load(answer)


@pytest.fixture(scope="session")
def server(tmp_path_factory) -> Iterator[Server]:
    server = Server(tmp_path_factory.mktemp("arcade") / "arcade.sqlite3", options=("--access-log",))
    server.start()
    yield server
    server.kill()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test's report ends with the last requests the server answered, with their times (a
    page that waited in vain shows whether its request came, and when it was answered)."""
    outcome = yield
    report = outcome.get_result()
    server = getattr(item, "funcargs", {}).get("server")
    if report.failed and isinstance(server, Server) and server.log.exists():
        lines = server.log.read_text(errors="replace").splitlines()[-SERVER_LOG_LINES:]
        report.sections.append((f"server log, last {len(lines)} lines", "\n".join(lines)))


@pytest.fixture(
    scope="module"
)  # not session: Playwright's loop would stay running under later asyncio tests
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    with page_in(browser) as page:
        yield page


class Play:
    """Drives one game screen: settings, waits on the server's answers, reads the state the page shows."""

    def __init__(self, page, server: Server) -> None:
        self.page = page
        self.server = server

    def open(self, game: str, settings: dict | None = None) -> str:
        """Open a game's screen (with saved settings for its first deal); return the game id shown."""
        self.page.goto(f"{self.server.url}/")
        if settings is not None:
            self.page.evaluate(
                "([key, value]) => localStorage.setItem(key, value)",
                [f"tilegames.{game}.settings", json.dumps(settings)],
            )
        self.page.goto(f"{self.server.url}/#/{game}")
        return self.game_id()

    def game_id(self, other_than: str | None = None) -> str:
        self.page.wait_for_function(
            "(old) => { const id = document.querySelector('[data-board]')?.dataset.gameId;"
            " return id && id !== old; }",
            arg=other_than,
        )
        return self.page.get_attribute("[data-board]", "data-game-id")

    def state(self) -> dict:
        return self.server.api(f"/api/games/{self.game_id()}")

    def wait_plies(self, plies: int) -> None:
        self.page.wait_for_function(
            f"document.querySelector('[data-board]')?.dataset.plies === '{plies}'"
        )

    def plies(self) -> int:
        return int(self.page.get_attribute("[data-board]", "data-plies"))

    def moves_shown(self) -> int:
        return int(self.page.inner_text("[data-stat=moves]"))

    def press(self, action: str) -> None:
        self.page.click(f"[data-action={action}]")

    def best_rows(self) -> list[str]:
        self.page.goto(f"{self.server.url}/#/")
        self.page.wait_for_selector("[data-best][data-loaded]")
        return [
            row.get_attribute("data-best-row")
            for row in self.page.query_selector_all("[data-best-row]")
        ]


@pytest.fixture
def play(page, server) -> Play:
    return Play(page, server)
