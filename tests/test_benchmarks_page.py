"""docs/benchmarks.md is the current state, not a diary: each section names what it measures,
its command and its figure; the history of past series and issues lives in git
(``git log -p docs/benchmarks.md``)."""

from __future__ import annotations

import re
from pathlib import Path

PAGE = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"


def sections(text: str) -> dict[str, str]:
    """The page's ``##`` sections by heading."""
    parts = re.split(r"^## (.+)$", text, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_every_section_but_the_grouped_ones_has_its_measure_command_target_and_figure() -> None:
    for heading, body in sections(PAGE.read_text(encoding="utf-8")).items():
        if heading in ("Helpers",) or heading.startswith("Production"):
            continue  # the helpers run no figure; production's scripts share one list
        for part in ("**Measure", "**Command", "**Target", "**Figure"):
            assert part in body, f"{heading}: no {part.strip('*')}"


def test_no_section_is_an_issue_s_history() -> None:
    for heading, body in sections(PAGE.read_text(encoding="utf-8")).items():
        assert not re.search(r"\bissue \d+\b", heading, re.IGNORECASE), heading
        assert not re.search(r"\bsection on issue\b", body), heading
