"""Database faults for the fault-injection suite (tests/bot/test_faults_db.py): a throwaway
PostgreSQL server a test may stop, freeze (SIGSTOP) and continue, and the storage of a bot
checked against what its people were told.

The server is started as ``scripts/test`` starts its own (initdb + pg_ctl, as the ``postgres``
user when run as root), on a free port, in a folder of its own; it is never the shared test
server of ``$DECKHAND_TEST_PG``, which nothing here stops.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.bot.realbot import descendants


def _pg_bin() -> str | None:
    """The folder of PostgreSQL's programs (the newest installed), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                   key=lambda p: [int(x) for x in p.split("/")[-2].split(".") if x.isdigit()])
    if found and os.access(os.path.join(found[-1], "pg_ctl"), os.X_OK):
        return found[-1]
    initdb = shutil.which("initdb")
    return os.path.dirname(initdb) if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ThrowawayPostgres:
    """A PostgreSQL server of one test module: started, stopped, frozen and continued."""

    def __init__(self) -> None:
        bin_dir = _pg_bin()
        if bin_dir is None:
            pytest.skip("PostgreSQL is not installed (bash scripts/setup --test installs it)")
        self.bin = bin_dir
        self.dir = Path(tempfile.mkdtemp(prefix="deckhand-faults-pg."))
        self.as_owner: list[str] = []
        if os.getuid() == 0:  # PostgreSQL refuses to run as root
            if subprocess.run(["id", "-u", "postgres"], capture_output=True).returncode != 0:
                subprocess.run(["useradd", "--system", "--no-create-home", "postgres"],
                               check=True)
            shutil.chown(self.dir, "postgres")
            self.as_owner = ["runuser", "-u", "postgres", "--"]
        self.port = _free_port()
        self.url = f"postgresql://deckhand@127.0.0.1:{self.port}/postgres"
        self._run("initdb", "-D", str(self.dir / "data"), "-U", "deckhand", "--auth=trust",
                  "-E", "UTF8", "--no-sync")
        self.frozen = False

    def _run(self, program: str, *args: str) -> None:
        done = subprocess.run([*self.as_owner, os.path.join(self.bin, program), *args],
                              capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            log = self.dir / "server.log"
            raise RuntimeError(f"{program} failed: {done.stderr}\n"
                               + (log.read_text() if log.exists() else ""))

    def start(self) -> None:
        """Start the server (again) on its port, waiting until it answers."""
        # commits reach the server's log before they are answered (synchronous_commit), so a
        # stop at once loses none; no flush to the disk (fsync), since the machine stays up
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir}"
                   " -c fsync=off -c synchronous_commit=on -c full_page_writes=off")
        self._run("pg_ctl", "-D", str(self.dir / "data"), "-l", str(self.dir / "server.log"),
                  "-w", "-t", "60", "-o", options, "start")

    def stop(self) -> None:
        """Stop the server at once (connections cut, as a crash or a failover would)."""
        self.cont()
        self._run("pg_ctl", "-D", str(self.dir / "data"), "-m", "immediate", "stop")

    def pids(self) -> list[int]:
        """The server's processes: the postmaster and all its children."""
        pidfile = self.dir / "data" / "postmaster.pid"
        main = int(pidfile.read_text().split()[0])
        return [main, *descendants(main)]

    def freeze(self) -> None:
        """SIGSTOP every process of the server: it accepts connections at the kernel's level
        and answers nothing, as a server stuck on a dead disk or a paused VM does."""
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)
        self.frozen = True

    def cont(self) -> None:
        """SIGCONT what :meth:`freeze` stopped."""
        if not self.frozen:
            return
        with contextlib.suppress(OSError, ValueError):
            for pid in self.pids():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)
        self.frozen = False

    def remove(self) -> None:
        """Stop the server (if it runs) and delete its folder."""
        with contextlib.suppress(Exception):
            self.cont()
        if (self.dir / "data" / "postmaster.pid").exists():
            with contextlib.suppress(Exception):
                self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
