"""Playwright for Python driving Debian's Chromium (no browser download) against live_server."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.requirements import require

CHROMIUM = Path(os.environ.get("PODIUM_CHROMIUM", "/usr/bin/chromium"))


# Package scope: Playwright's event loop must be gone before other packages' tests, which call
# asyncio.run() in this same thread.
@pytest.fixture(scope="package")
def browser():
    require(CHROMIUM.exists(), f"Chromium at {CHROMIUM}")
    # Playwright's sync API runs an event loop in the test thread; the ORM calls the tests make
    # to seed rows are still plain synchronous code. Only while these tests run: the variable
    # must never reach a deployment (check --deploy refuses it).
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover
        require(False, "playwright for Python")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-dev-shm-usage",
            ],
        )
        yield browser
        browser.close()
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


class Console:
    """Every console error and uncaught page exception of one page."""

    def __init__(self, page):
        self.errors: list[str] = []
        page.on(
            "console",
            lambda msg: self.errors.append(f"console: {msg.text}") if msg.type == "error" else None,
        )
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    page.console = Console(page)
    yield page
    context.close()
