"""`tilegames serve` in a child process on a free port, waited on until it answers.

The browser tests, the restart test, the screenshots and the load benchmark all need a real server
process (one they can kill -9); this is the one way they start it.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self


def free_port() -> int:
    """A TCP port on loopback that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class ServerProcess:
    """`tilegames serve --port PORT --db DB [options]`, its output in `DB.log` (or `log_file`, which a
    `postgresql://` URL as DB needs); `prefix` runs it under e.g. `nice`."""

    db: Path | str
    port: int = field(default_factory=free_port)
    prefix: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    process: subprocess.Popen[bytes] | None = None
    log_file: Path | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log(self) -> Path:
        return self.log_file if self.log_file is not None else Path(f"{self.db}.log")

    def start(self, timeout: float = 240.0) -> None:
        """Start the server and wait until `/api/health` answers ok (a cold start compiles kernels)."""
        command = [*self.prefix, sys.executable, "-m", "tilegames", "serve"]
        command += ["--port", str(self.port), "--db", str(self.db), *self.options]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text(errors='replace')}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/health", timeout=1) as answer:
                    if json.load(answer)["ok"]:
                        return
            except OSError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"server did not start in {timeout:g} s")

    def kill(self) -> None:
        """SIGKILL the server and its worker processes: no shutdown, no checkpoint."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        """Shut the server down cleanly."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.kill()

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
