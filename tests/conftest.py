"""Shared test settings."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from games import wording

ROOT = Path(__file__).resolve().parents[1]

settings.register_profile("ci", deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture
def locales(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the catalogues the test may add a language to."""
    copy = tmp_path / "locales"
    shutil.copytree(wording.LOCALES, copy)
    monkeypatch.setattr(wording, "LOCALES", copy)
    wording.forget()
    yield copy
    wording.forget()


#: the files whose tests take longest (tens of seconds each, `--durations` of a whole run), run
#: first: the workers share the rest out among themselves afterwards, so that the run does not
#: end with one worker still in a long test while the others wait
SLOW_FIRST = (
    "tests/browser/test_games.py",
    "tests/benchmarks/",
    "tests/bot/test_e2e_tournaments.py",
    "tests/bot/test_e2e_review.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow files first, each file's tests still together and in their order (a file's
    fixtures and event loop are shared by its tests)."""
    def rank(item: pytest.Item) -> int:
        path = Path(str(item.path)).resolve().relative_to(ROOT).as_posix()
        return next((i for i, slow in enumerate(SLOW_FIRST) if path.startswith(slow)),
                    len(SLOW_FIRST))

    items.sort(key=rank)  # (a stable sort)
