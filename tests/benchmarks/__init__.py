"""Benchmark scripts run end to end at a tiny size, each as its own process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(script: str, *args: str, timeout: float = 240.0) -> str:
    """Run a benchmark script; its output, after checking it succeeded."""
    done = launch(script, *args, timeout=timeout)
    assert done.returncode == 0, f"{script} failed:\n{done.stdout}\n{done.stderr[-3000:]}"
    return done.stdout


def launch(script: str, *args: str, timeout: float = 240.0) -> subprocess.CompletedProcess[str]:
    """Run a benchmark script, however it ends."""
    return subprocess.run([sys.executable, f"benchmarks/{script}", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)
