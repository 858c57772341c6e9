"""The HTML report opened in headless Chromium, offline: its tables and pictures are there.

Needs Debian's ``chromium`` package (``apt-get install -y chromium``); skipped without it.
"""
import re
import shutil
import subprocess
from html.parser import HTMLParser

import numpy as np
import pytest
from matplotlib import image as mpimage

from test_report import _report, toy  # noqa: F401 (toy is a fixture)

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="headless Chromium not found: install Debian's package with apt-get install -y chromium")
# Matplotlib's default blue (tab:blue): drawn in the figures, nowhere in the page's own style.
TAB_BLUE = np.array([31, 119, 180]) / 255


def _chromium(tmp_path, *args) -> subprocess.CompletedProcess:
    """Headless Chromium with a fresh profile and every background network feature off."""
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--enable-logging=stderr", f"--user-data-dir={tmp_path / 'profile'}",
         *map(str, args)], capture_output=True, text=True, timeout=180)


class _Elements(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: dict[str, list[dict]] = {}
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.setdefault(tag, []).append(dict(attrs))

    def handle_data(self, data):
        self.text.append(data)


def test_rendered_dom_has_the_tables_and_embedded_images(toy, tmp_path):  # noqa: F811
    page = _report(toy) / "report.html"
    run = _chromium(tmp_path, "--dump-dom", page.as_uri())
    assert run.returncode == 0, run.stderr[-2000:]
    dom = _Elements()
    dom.feed(run.stdout)
    assert len(dom.tags["table"]) == 5  # comparison, by POS, McNemar, calibration, per lexelt
    text = " ".join(dom.text)
    assert "Our systems (top sense) beside published results" in text
    assert re.search(r"87\.5 \[\d+\.\d, 100\.0\]", text)
    sources = [img["src"] for img in dom.tags["img"]]
    assert len(sources) == 2 and all(s.startswith("data:image/png;base64,") for s in sources)
    assert "Refused to" not in run.stderr  # nothing the page asked for was blocked


def test_screenshot_shows_the_pictures(toy, tmp_path):  # noqa: F811
    page = _report(toy) / "report.html"
    shot = tmp_path / "page.png"
    run = _chromium(tmp_path, "--hide-scrollbars", "--window-size=1280,6000",
                    f"--screenshot={shot}", page.as_uri())
    assert run.returncode == 0 and shot.is_file(), run.stderr[-2000:]
    pixels = mpimage.imread(shot)[..., :3]
    blue = np.all(np.abs(pixels - TAB_BLUE) < 0.06, axis=-1)
    # The scatter points and reliability bars: a broken image would show no tab:blue at all.
    assert blue.sum() > 200
