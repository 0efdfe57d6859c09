"""Launching Debian's chromium through Playwright, the one way it works here (no Playwright download)."""

from __future__ import annotations

import os
from pathlib import Path

CHROMIUM = Path(os.environ.get("GHOSTGAMES_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
WEB = Path(__file__).resolve().parents[2] / "src" / "ghostgames" / "web"


def screenshot_path(name: str) -> str:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return str(ARTIFACTS / f"{name}.png")
