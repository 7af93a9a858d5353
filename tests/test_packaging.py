"""The project installs reproducibly: every dependency pinned with hashes in the lock files that
scripts/setup, the image and CI install; one setup stamp that follows the lock files; the
licence files; the checks CI runs (mypy on every package, a time limit per test)."""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.discord_sim import spec

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
ENTRY = re.compile(
    # (an environment marker may follow the version: uvloop's "; sys_platform != 'win32'")
    r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)(?: ;[^\\\n]*)?"
    r"((?:\s*\\\n\s+--hash=sha256:[0-9a-f]{64})*)", re.M
)


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(lock: str) -> dict[str, tuple[str, int]]:
    """A lock file's pins: name -> (version, number of hashes)."""
    text = (ROOT / lock).read_text()
    found = {normal(m[1]): (m[2], m[3].count("--hash=")) for m in ENTRY.finditer(text)}
    requirements = [line for line in text.splitlines()
                    if line and not line.startswith((" ", "#"))]
    assert len(requirements) == len(found), f"{lock}: an entry is not NAME==VERSION with hashes"
    return found


def names(requirements: list[str]) -> set[str]:
    return {normal(re.split(r"[\s<>=!~;\[]", r, maxsplit=1)[0]) for r in requirements}


def test_every_dependency_is_pinned_with_hashes() -> None:
    runtime, test = pins("requirements.lock"), pins("requirements-test.lock")
    backend = names(PROJECT["build-system"]["requires"])
    assert names(PROJECT["project"]["dependencies"]) | backend <= set(runtime)
    tools = names(PROJECT["project"]["optional-dependencies"]["test"])
    assert tools | set(runtime) <= set(test)
    assert "pytest-timeout" in tools
    assert "pip-tools" not in test, "the lock tool belongs to scripts/lock alone"
    for name, (version, hashes) in [*runtime.items(), *test.items()]:
        assert hashes >= 1, f"{name}=={version} has no hash"
    # one environment serves the bot and the tests: the same version in both files
    assert {name: test[name][0] for name in runtime} == {n: v for n, (v, _) in runtime.items()}


def test_the_environment_is_the_locked_one() -> None:
    for name, (version, _) in pins("requirements-test.lock").items():
        assert importlib.metadata.version(name) == version, name


def test_setup_the_image_and_ci_install_from_the_locks() -> None:
    setup = (ROOT / "scripts" / "setup").read_text()
    assert "lock=requirements.lock" in setup and "lock=requirements-test.lock" in setup
    assert '--require-hashes -r "$lock"' in setup
    assert "--no-deps --no-build-isolation -e ." in setup
    docker = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    runs = [" ".join(line.split()) for line in docker.splitlines() if line.startswith("RUN")]
    assert any("--require-hashes -r requirements.lock" in run for run in runs)
    assert any("--no-deps --no-build-isolation ." in run for run in runs)
    assert not any("--upgrade" in run for run in runs), "nothing unpinned in the image"
    assert "bash scripts/test" in (ROOT / ".ci" / "run").read_text()
    assert "bash scripts/setup --test" in (ROOT / "scripts" / "test").read_text()


def test_ci_type_checks_every_package() -> None:
    script = (ROOT / "scripts" / "test").read_text()
    assert re.search(r"^\.venv/bin/mypy --strict games bot cogs$", script, re.M)
    packages = {p.rstrip("*") for p in PROJECT["tool"]["setuptools"]["packages"]["find"]["include"]}
    assert packages == {"games", "bot", "cogs"}


def test_every_test_has_a_time_limit(request: pytest.FixtureRequest) -> None:
    assert request.config.pluginmanager.hasplugin("timeout")
    limit = float(PROJECT["tool"]["pytest"]["ini_options"]["timeout"])
    assert 60 <= limit <= 900
    assert float(request.config.getini("timeout")) == limit


def test_ci_runs_the_tests_on_every_core(request: pytest.FixtureRequest) -> None:
    assert "pytest-xdist" in names(PROJECT["project"]["optional-dependencies"]["test"])
    assert request.config.pluginmanager.hasplugin("xdist")
    script = (ROOT / "scripts" / "test").read_text()
    run = re.search(r"^\.venv/bin/python -m pytest (.*)$", script, re.M)
    assert run is not None and "-n auto" in run.group(1) and run.group(1).endswith('"$@"')
    # nothing in the settings turns the parallel run off or skips tests for it
    assert "-n" not in PROJECT["tool"]["pytest"]["ini_options"]["addopts"].split()


def test_the_licences_are_there() -> None:
    assert PROJECT["project"]["license"] == "MIT"
    licence = (ROOT / "LICENSE").read_text()
    assert licence.startswith("MIT License") and "the Deckhand authors" in licence
    assert "THE SOFTWARE IS PROVIDED \"AS IS\"" in licence
    folder = spec.SPEC_PATH.parent
    assert folder.is_relative_to(ROOT), "the tests read Discord's description from the clone"
    notice = (folder / "LICENSE").read_text()
    assert notice.startswith("MIT License") and "Discord" in notice
    assert json.loads(spec.SPEC_PATH.read_text())["info"]["license"]["identifier"] == "MIT"


# -- the setup stamp: scripts/setup run in a copy, with a python that records pip's work ------

FAKE_PYTHON = """#!/bin/sh
if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then echo "$*" >>"$PIP_LOG"; exit 0; fi
exec {python} "$@"
"""


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    for name in ("pyproject.toml", "requirements.lock", "requirements-test.lock"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "setup", tmp_path / "scripts" / "setup")
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(FAKE_PYTHON.format(python=sys.executable))
    python.chmod(0o755)
    # a made environment (its stamp is written last) that has nothing installed yet
    (tmp_path / ".venv" / ".deckhand-setup").write_text("")
    return tmp_path


def setup(clone: Path, *args: str) -> list[str]:
    """Run scripts/setup in the copy; the pip commands it ran."""
    log = clone / "pip.log"
    log.unlink(missing_ok=True)
    # PostgreSQL counts as present, so the run only looks at the Python environment
    env = {**os.environ, "PIP_LOG": str(log), "PATH": f"{clone}:{os.environ['PATH']}"}
    (clone / "initdb").write_text("#!/bin/sh\n")
    (clone / "initdb").chmod(0o755)
    subprocess.run(["bash", "scripts/setup", *args], cwd=clone, env=env, check=True,
                   capture_output=True, text=True, timeout=60)
    return log.read_text().splitlines() if log.exists() else []


def test_setup_installs_once_per_lock_content(clone: Path) -> None:
    installs = setup(clone, "--test")
    assert any("--require-hashes -r requirements-test.lock" in line for line in installs)
    assert any("--no-deps --no-build-isolation -e ." in line for line in installs)
    assert setup(clone) == []  # the bot after the tests: nothing to install
    assert setup(clone, "--test") == []
    with (clone / "requirements.lock").open("a") as lock:
        lock.write("# a pin moved\n")
    installs = setup(clone)
    assert any("--require-hashes -r requirements.lock" in line for line in installs)
    assert setup(clone) == []
    assert any("requirements-test.lock" in line for line in setup(clone, "--test"))


def test_setup_for_the_bot_then_for_the_tests_adds_the_test_tools(clone: Path) -> None:
    assert any("-r requirements.lock" in line for line in setup(clone))
    assert any("-r requirements-test.lock" in line for line in setup(clone, "--test"))
    assert setup(clone) == []
    (clone / "pyproject.toml").write_text((clone / "pyproject.toml").read_text() + "\n")
    installs = setup(clone)  # the package again, not its dependencies
    assert len(installs) == 1 and "-e ." in installs[0]
    assert setup(clone, "--test") == []
