"""What the browser tests share (tests/test_web.py, tests/test_web_taps.py and the fixtures of
tests/conftest.py): where Chromium is, how it is started, the phone's size, where screenshots
go. Playwright itself is imported by the tests and fixtures that drive it."""

from __future__ import annotations

import os
from pathlib import Path

CHROMIUM = Path(os.environ.get("SLEUTH_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
OUTPUT = Path(__file__).resolve().parent / "output"
PHONE = {"width": 390, "height": 844}
