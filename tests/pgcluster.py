"""A throwaway PostgreSQL cluster: `initdb` + `pg_ctl` in a temporary directory, removed afterwards.

The server refuses to run as root, so as root the cluster belongs to an unprivileged user (``postgres``, which
Debian's package creates) and every server command runs through ``runuser``. It listens on a free port on
loopback and on a Unix socket in its own directory; authentication is ``trust`` (nothing else can reach it).
The tests, the bench and anyone trying the PostgreSQL store by hand use this one class.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self


class ClusterUnavailable(RuntimeError):
    """PostgreSQL's server programs are missing, or there is no unprivileged user to run them as root."""


def server_bin() -> Path:
    """The directory with `initdb` and `pg_ctl` (Debian keeps them out of PATH), newest version first."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4])
    )
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).resolve().parent
    raise ClusterUnavailable(
        "PostgreSQL's initdb is not installed (bash scripts/install-postgresql installs it)"
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class PostgresCluster:
    """``with PostgresCluster() as pg: pg.url`` — a running cluster with one empty database, ``tilegames``."""

    port: int = field(default_factory=_free_port)
    database: str = "tilegames"
    directory: Path | None = None
    _user: str | None = None

    def _run(self, *command: str) -> subprocess.CompletedProcess[str]:
        if self._user is not None:
            command = ("runuser", "-u", self._user, "--", *command)
        return subprocess.run(command, check=True, capture_output=True, text=True, timeout=120)

    @property
    def socket_dir(self) -> Path:
        assert self.directory is not None
        return self.directory / "socket"

    @property
    def url(self) -> str:
        """A TCP URL: ``postgresql://postgres@127.0.0.1:PORT/tilegames``."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{self.database}"

    @property
    def socket_url(self) -> str:
        """The same database through the Unix socket: ``postgresql://postgres@/tilegames?host=DIR&port=PORT``."""
        return f"postgresql://postgres@/{self.database}?host={self.socket_dir}&port={self.port}"

    def start(self) -> None:
        bin_dir = server_bin()
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                raise ClusterUnavailable(
                    "running as root and there is no 'postgres' user to run the server as"
                ) from None
            self._user = "postgres"
        self.directory = Path(tempfile.mkdtemp(prefix="tilegames-pg-"))
        data = self.directory / "data"
        self.socket_dir.mkdir()
        if self._user is not None:
            user = pwd.getpwnam(self._user)
            for path in (self.directory, self.socket_dir):
                os.chown(path, user.pw_uid, user.pw_gid)
        self._run(
            str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
            "-E", "UTF8", "--no-sync",
        )  # fmt: skip
        options = (
            f"-p {self.port} -k {self.socket_dir} -c listen_addresses=127.0.0.1"
            " -c max_connections=200 -c fsync=on -c synchronous_commit=on"
        )
        self._run(
            str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options,
            "-l", str(self.directory / "server.log"), "-w", "-t", "60", "start",
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while True:
            try:
                self._psql("postgres", f'CREATE DATABASE "{self.database}"')
                return
            except subprocess.CalledProcessError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def _psql(self, database: str, sql: str) -> str:
        command = (
            "psql", "-X", "-q", "-A", "-t", "-h", str(self.socket_dir), "-p", str(self.port),
            "-U", "postgres", "-d", database, "-c", sql,
        )  # fmt: skip
        return subprocess.run(
            command, check=True, capture_output=True, text=True, timeout=60
        ).stdout

    def sql(self, statement: str) -> str:
        """Run one statement with psql in the cluster's database; its output, unaligned."""
        return self._psql(self.database, statement)

    def reset(self) -> None:
        """Drop and recreate the database: a clean slate for the next test."""
        self._psql("postgres", f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
        self._psql("postgres", f'CREATE DATABASE "{self.database}"')

    def stop(self) -> None:
        if self.directory is None:
            return
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self._run(
                str(server_bin() / "pg_ctl"), "-D", str(self.directory / "data"),
                "-m", "immediate", "-w", "stop",
            )  # fmt: skip
        shutil.rmtree(self.directory, ignore_errors=True)
        self.directory = None

    def __enter__(self) -> Self:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
