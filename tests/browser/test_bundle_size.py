"""The Activity's first load stays small: the page, its script and its style, gzip-compressed
as a server or Discord's proxy sends them, within 250 KB."""

from __future__ import annotations

import gzip

from tests.browser.harness import STATIC

BUDGET = 250 * 1024
FIRST_LOAD = ("index.html", "app.js", "app.css")


def test_the_first_load_is_within_its_budget_gzipped() -> None:
    assert (STATIC / "index.html").is_file(), \
        "the Activity's client is not built: run scripts/setup (it needs Node)"
    sizes = {name: len(gzip.compress((STATIC / name).read_bytes(), 9)) for name in FIRST_LOAD}
    total = sum(sizes.values())
    print(f"first load, gzip: {total} bytes ({total / 1024:.1f} KB): {sizes}")
    assert total <= BUDGET, sizes
    # the page loads nothing else before it draws: its only script and style are these
    page = (STATIC / "index.html").read_text()
    assert 'src="app.js"' in page and 'href="app.css"' in page
    assert not [p for p in STATIC.iterdir() if p.suffix == ".js" and p.name != "app.js"]
