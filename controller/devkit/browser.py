"""Headless Chromium through Selenium, for the monitor's browser tests and its screenshot.

Debian's ``chromium`` and ``chromium-driver`` (``/usr/bin/chromium``,
``/usr/bin/chromedriver``); nothing is downloaded. :func:`missing` says why a
browser cannot be had here, so a test can skip saying so.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from selenium.webdriver import Chrome

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage")


def missing() -> str | None:
    """Why headless Chromium cannot be driven here (None: it can)."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not Path(path).exists() and shutil.which(Path(path).name) is None:
            return f"{path} is missing: apt-get install {package} (make test installs it when root)"
    return None


def chromium(profile: Path, *, width: int = 1400, height: int = 900) -> Chrome:
    """A headless Chromium with a fresh profile in ``profile``; ``quit()`` it when done."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM if Path(CHROMIUM).exists() else str(shutil.which("chromium"))
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    driver_path = CHROMEDRIVER if Path(CHROMEDRIVER).exists() else str(shutil.which("chromedriver"))
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    driver.set_script_timeout(30)
    return driver
