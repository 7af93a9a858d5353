"""Worker pools follow the CPUs the process may use: its CPU affinity and its container's CPU
quota (cgroup v2 ``cpu.max``, v1 ``cpu.cfs_quota_us``/``cpu.cfs_period_us``), never the host's
core count (a container on a 32-core host made 63 processes; #48). Affinity and the cgroup
files are injected."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot import config, workers


def host(cores: int) -> Callable[[int], set[int]]:
    return lambda pid: set(range(cores))


def group(tmp_path: Path, files: dict[str, str], own: str = "0::/\n") -> tuple[Path, Path]:
    root = tmp_path / "cgroup"
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    (tmp_path / "self").write_text(own)
    return root, tmp_path / "self"


@pytest.mark.parametrize(("files", "wanted"), [
    ({"cpu.max": "200000 100000\n"}, 2),            # docker --cpus=2, cgroup v2
    ({"cpu.max": "150000 100000\n"}, 2),            # 1.5 CPUs' time spreads over two
    ({"cpu.max": "50000 100000\n"}, 1),             # half a CPU: still one
    ({"cpu.max": "max 100000\n"}, 32),              # no quota: the affinity
    ({"cpu/cpu.cfs_quota_us": "400000\n", "cpu/cpu.cfs_period_us": "100000\n"}, 4),   # v1
    ({"cpu,cpuacct/cpu.cfs_quota_us": "300000", "cpu,cpuacct/cpu.cfs_period_us": "100000"}, 3),
    ({"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}, 32),       # none
    ({"cpu.max": "garbage"}, 32),
    ({}, 32),                                        # no cgroup files at all
])
def test_the_cpu_quota_limits_the_usable_cpus(tmp_path: Path, files: dict[str, str],
                                              wanted: int) -> None:
    root, own = group(tmp_path, files)
    assert workers.usable_cpus(host(32), root, own) == wanted


def test_the_affinity_limits_the_usable_cpus(tmp_path: Path) -> None:
    root, own = group(tmp_path, {"cpu.max": "800000 100000"})
    assert workers.usable_cpus(lambda pid: {3, 7}, root, own) == 2  # taskset -c 3,7


def test_a_service_group_and_the_groups_above_it_count(tmp_path: Path) -> None:
    root, own = group(tmp_path, {"cpu.max": "max 100000",
                                 "system.slice/cpu.max": "300000 100000",
                                 "system.slice/deckhand.service/cpu.max": "max 100000"},
                      own="0::/system.slice/deckhand.service\n")
    assert workers.cpu_quota(root, own) == 3.0
    assert workers.usable_cpus(host(32), root, own) == 3


def test_the_default_pools_follow_the_container_not_the_host(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root, own = group(tmp_path, {"cpu.max": "200000 100000"})
    monkeypatch.setattr(workers, "CGROUP_ROOT", root)
    monkeypatch.setattr(workers, "OWN_CGROUPS", own)
    monkeypatch.setattr("os.sched_getaffinity", host(32))
    monkeypatch.setattr("os.cpu_count", lambda: 32)
    settings = config.load({"DISCORD_TOKEN": "t"})
    assert (settings.ai_workers, settings.render_workers) == (1, 1)  # 2 CPUs, one for the loop
    assert config.default_workers() == 1
