"""Fixtures of the browser tests: one headless Chromium per module, a phone-sized context
per test. Playwright is imported when a test asks for them, so that a machine without the
web extra still collects every module (those tests skip)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser import ARGS, CHROMIUM, PHONE


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True)
    yield context
    context.close()
