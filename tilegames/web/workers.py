"""A pool of worker processes for the slow work (solves, hints, deals), with a hard time limit per job.

Why processes and not threads: the engines' kernels are numba code that need not release the GIL, and the
Lianliankan solver is plain Python; in a thread either would stall the event loop's own thread and so every
player's moves. A process also can be killed: a job past its time limit gets its pool torn down (the processes
killed) and a fresh pool started, so a runaway search never holds a worker. The engines get the time limit too
(``timeout=``) and usually stop on their own first; the kill is the backstop.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")


class WorkerError(Exception):
    """A job did not produce an answer: ``busy`` (queue full), ``timeout`` or ``crashed``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def _lower_priority() -> None:
    """Run a worker at a lower CPU priority: a long solve must not slow down everyone's moves."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)


class Workers:
    """Runs functions in worker processes from async code: ``await workers.run(fn, *args, timeout=s)``."""

    def __init__(self, processes: int = 2, *, queue: int = 16) -> None:
        self.processes = processes
        self.queue = queue
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._pending = 0
        self.restarts = 0

    def _executor(self) -> Executor:
        with self._lock:
            if self._pool is None:
                # spawn, not fork: the server has threads (the thread pool, SQLite) that fork would copy mid-state.
                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(
                    self.processes, mp_context=context, initializer=_lower_priority
                )
            return self._pool

    def _kill(self, pool: Executor) -> None:
        with self._lock:
            if self._pool is not pool:
                return
            self._pool = None
            self.restarts += 1
        processes = list(getattr(pool, "_processes", {}).values())
        for process in processes:
            process.kill()
        pool.shutdown(wait=False, cancel_futures=True)

    async def run(self, fn: Callable[..., T], *args: Any, timeout: float) -> T:
        if self._pending >= self.queue:
            raise WorkerError("busy", "the server is busy with other solves; try again in a moment")
        self._pending += 1
        pool = self._executor()
        try:
            future = asyncio.get_running_loop().run_in_executor(pool, fn, *args)
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            self._kill(pool)
            raise WorkerError(
                "timeout", f"the job took longer than {timeout:g} s and was stopped"
            ) from None
        except BrokenProcessPool:
            self._kill(pool)
            raise WorkerError("crashed", "a worker process stopped; try again") from None
        finally:
            self._pending -= 1

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            for process in list(getattr(pool, "_processes", {}).values()):
                process.kill()
            pool.shutdown(wait=True, cancel_futures=True)
