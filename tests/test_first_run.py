"""A first run that cannot trip (#48): scripts/setup checks the Python version before anything
else with a sentence naming 3.11, never reuses a half-made environment, and skips the
Activity's client with one sentence when npm cannot build it (the bot still sets up);
scripts/test says in one sentence that the browser tests need the client.

Each runs the real script in a copy of the clone, with stand-ins first on PATH: a ``python3``
that reports the version a test gives and makes stand-in environments (whose pip only records
what it was asked, or fails, or kills the setup as an interruption would), and a ``node`` and an
``npm`` that fail as an unreachable registry does. No network, a second or two each."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: python3 on PATH: the version FAKE_VERSION says (else the real one's), environments made as
#: stand-ins; everything else by the real Python
PYTHON3 = """#!/bin/sh
if [ "$1" = "-c" ] && [ -n "$FAKE_VERSION" ]; then
    case "$2" in *version_info*) echo "$FAKE_VERSION"; exit 0;; esac
fi
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
    echo "venv $3" >>"$PIP_LOG"
    mkdir -p "$3/bin"
    cp "$VENV_PYTHON" "$3/bin/python"
    chmod 755 "$3/bin/python"
    exit 0
fi
exec {python} "$@"
"""
#: an environment's python: pip records what it was asked (PIP_FAILS=fail: fails as an
#: unreachable index does; kill: the setup is killed in the middle of it)
VENV_PYTHON = """#!/bin/sh
if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then
    echo "$*" >>"$PIP_LOG"
    case "$PIP_FAILS" in
        fail) echo "ERROR: Could not find a version that satisfies the requirement" >&2; exit 1;;
        kill) kill -9 "$PPID"; exit 1;;
    esac
    exit 0
fi
exec {python} "$@"
"""
#: npm with its registry out of reach: twenty lines of errors
NPM = """#!/bin/sh
echo "npm $*" >>"$NPM_LOG"
i=0
while [ $i -lt 20 ]; do
    echo "npm ERR! network request to https://registry.npmjs.org failed" >&2
    i=$((i+1))
done
exit 1
"""


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    """A copy of the clone's setup, its lock files and the client's sources, with the stand-ins
    in its bin/."""
    copy = tmp_path / "clone"
    (copy / "scripts").mkdir(parents=True)
    for name in ("pyproject.toml", "requirements.lock", "requirements-test.lock",
                 "scripts/setup", "scripts/test"):
        shutil.copy(ROOT / name, copy / name)
    stand_ins = tmp_path / "bin"
    stand_ins.mkdir()
    for name, text in (("python3", PYTHON3), ("venv-python", VENV_PYTHON)):
        (stand_ins / name).write_text(text.format(python=sys.executable))
        (stand_ins / name).chmod(0o755)
    # PostgreSQL, the fonts and the text-layout libraries count as present, so that no run
    # tries to install them, whatever this machine has
    for name, text in (("initdb", ""), ("fc-list", "echo NotoSansCJK-Regular.ttc\n"),
                       ("ldconfig", "echo libraqm.so.0 libfribidi.so.0\n")):
        (stand_ins / name).write_text(f"#!/bin/sh\n{text}")
        (stand_ins / name).chmod(0o755)
    return copy


def with_npm(clone: Path) -> None:
    """The client's sources, and Node installed with its registry out of reach. (Without
    them the copy has no web/, and the machine's own npm is never run.)"""
    (clone / "web").mkdir()
    for name in ("package.json", "package-lock.json", "build.mjs", "tsconfig.json"):
        shutil.copy(ROOT / "web" / name, clone / "web" / name)
    shutil.copytree(ROOT / "web" / "src", clone / "web" / "src")
    stand_ins = clone.parent / "bin"
    (stand_ins / "npm").write_text(NPM)
    (stand_ins / "node").write_text("#!/bin/sh\nexit 0\n")
    for name in ("npm", "node"):
        (stand_ins / name).chmod(0o755)


def setup(clone: Path, **env: str) -> subprocess.CompletedProcess[str]:
    stand_ins = clone.parent / "bin"
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHON", "FAKE_VERSION")}
    environ.update(PATH=f"{stand_ins}:{os.environ['PATH']}", PIP_LOG=str(clone / "pip.log"),
                   NPM_LOG=str(clone / "npm.log"), VENV_PYTHON=str(stand_ins / "venv-python"),
                   TMPDIR=str(clone.parent), **env)
    return subprocess.run(["bash", "scripts/setup"], cwd=clone, env=environ, text=True,
                          capture_output=True, timeout=60, check=False)


def log(clone: Path, name: str = "pip.log") -> list[str]:
    path = clone / name
    return path.read_text().splitlines() if path.exists() else []


def test_python_310_is_refused_first_with_a_sentence_naming_311(clone: Path) -> None:
    with_npm(clone)
    done = setup(clone, FAKE_VERSION="3.10")
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "Python 3.11" in done.stderr, done.stderr
    assert "python3 is Python 3.10" in done.stderr
    # first: nothing else was tried, and nothing is left for a later run to trust
    assert (done.stdout, log(clone), log(clone, "npm.log")) == ("", [], [])
    assert not (clone / ".venv").exists()


def test_a_python_that_is_not_there_is_a_sentence(clone: Path) -> None:
    done = setup(clone, PYTHON=str(clone / "no-such-python3.11"))
    assert done.returncode == 1 and "needs Python 3.11" in done.stderr
    assert done.stderr.count("\n") == 1 and not (clone / ".venv").exists()


def test_a_good_python_sets_up(clone: Path) -> None:
    done = setup(clone, FAKE_VERSION="3.11")
    assert done.returncode == 0, done.stderr
    assert (clone / ".venv" / ".deckhand-setup").exists()
    assert log(clone)[0] == "venv .venv"
    assert any("--require-hashes -r requirements.lock" in line for line in log(clone))


def test_an_unreachable_npm_registry_is_one_sentence_and_the_bot_still_sets_up(
        clone: Path) -> None:
    with_npm(clone)
    done = setup(clone)
    assert done.returncode == 0, done.stderr
    assert log(clone, "npm.log"), "the build was tried"
    assert "npm ERR!" not in done.stdout + done.stderr
    notes = [line for line in done.stderr.splitlines() if "web/" in line]
    assert len(notes) == 1 and "could not be built" in notes[0], done.stderr
    assert "the bot sets up and runs without it" in notes[0]
    kept = notes[0].split("npm's output is in ", 1)[1].split(")", 1)[0]
    assert "npm ERR!" in Path(kept).read_text()  # the errors are kept for whoever wants them
    assert (clone / ".venv" / ".deckhand-setup").exists()
    assert not (clone / "web" / "node_modules" / ".deckhand-build").exists()
    # again: tried again (the client is still missing), the bot's environment reused
    again = setup(clone)
    assert again.returncode == 0 and "could not be built" in again.stderr
    assert log(clone).count("venv .venv") == 1


@pytest.mark.parametrize("how", ["fail", "kill"])
def test_a_half_made_environment_is_never_reused(clone: Path, how: str) -> None:
    broken = setup(clone, PIP_FAILS=how)
    assert broken.returncode != 0
    assert (clone / ".venv").exists() and not (clone / ".venv" / ".deckhand-setup").exists()
    done = setup(clone)
    assert done.returncode == 0, done.stderr
    assert "left half-made" in done.stdout
    assert log(clone).count("venv .venv") == 2  # made again, not reused
    assert (clone / ".venv" / ".deckhand-setup").exists()
    assert setup(clone).stdout == ""  # complete now: trusted, nothing to do


def test_an_environment_whose_python_no_longer_runs_is_made_again(clone: Path) -> None:
    assert setup(clone).returncode == 0
    (clone / ".venv" / "bin" / "python").write_text("#!/bin/sh\nexit 1\n")  # Python removed
    done = setup(clone)
    assert done.returncode == 0, done.stderr
    assert "making it again" in done.stdout and log(clone).count("venv .venv") == 2


def test_the_tests_say_in_one_sentence_that_the_browser_tests_need_the_client(
        clone: Path) -> None:
    with_npm(clone)
    (clone / "scripts" / "setup").write_text("exit 0\n")  # set up, the client unbuilt
    done = subprocess.run(["bash", "scripts/test"], cwd=clone, text=True, capture_output=True,
                          timeout=60, check=False)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "browser tests" in done.stderr, done.stderr
