"""Shared test settings."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from games import wording

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
