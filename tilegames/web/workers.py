"""A pool of single-job worker processes for the slow work (solves, hints, deals), each job with its own clock.

Why processes and not threads: the engines' kernels are numba code that need not release the GIL, and the
Lianliankan solver is plain Python; in a thread either would stall the event loop's own thread and so every
player's moves. A process also can be killed.

Why not ``ProcessPoolExecutor``: its jobs cannot be stopped one at a time. Here each worker is one process with
one pipe and runs one job at a time, so a job's clock starts when a worker takes it (not while it waits), and a
job past its limit costs only itself: the engines get the limit and usually stop on their own first; as the
backstop the one process running that job is killed and replaced, and every other job, running or waiting,
carries on. Admission is bounded: the wait queue has a size, a job that would wait longer than its limit is
refused at once (503 with ``Retry-After``), and a client has at most one job in the pool at a time (429).
Background work (``BACKGROUND``) takes a worker only when another stays idle: it never holds them all.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import heapq
import math
import multiprocessing
import os
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, ClassVar, TypeVar

T = TypeVar("T")


@dataclass
class Requester:
    """Who is waiting on the jobs started in this context: a client address, until its request is answered."""

    client: str
    active: bool = True


#: Set per HTTP request by the app (tilegames.web.security); jobs started without one (warm-up,
#: background learning after the answer) belong to no client.
REQUESTER: ContextVar[Requester | None] = ContextVar("tilegames_requester", default=None)

#: Set for work after an answer (a 4×4's optimal length, loading tables): such a job waits, unseen by the
#: admission of the others, until it can take a worker and leave one idle, so it never holds every worker
#: while a player's deal or solve waits (a pool of one process runs it whenever its worker is idle).
BACKGROUND: ContextVar[bool] = ContextVar("tilegames_background", default=False)


class WorkerError(Exception):
    """A job did not produce an answer: ``busy`` (queue full or too long a wait, 503), ``one_at_a_time``
    (the client already has a job in the pool, 429), ``timeout`` (504) or ``crashed`` (500)."""

    STATUS: ClassVar[dict[str, int]] = {
        "busy": 503,
        "one_at_a_time": 429,
        "timeout": 504,
        "crashed": 500,
    }

    def __init__(self, reason: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.status = self.STATUS.get(reason, 500)
        self.retry_after = retry_after

    @property
    def headers(self) -> dict[str, str] | None:
        """``Retry-After`` in whole seconds (at least 1) when the client should simply try again."""
        if self.retry_after is None:
            return None
        return {"Retry-After": str(max(1, math.ceil(self.retry_after)))}


def _serve(connection: Connection) -> None:
    """A worker process: run each ``(fn, args)`` received, send back ``("ok", result)`` or ``("raise", exc)``."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)  # a long solve must not slow down everyone's moves
    while True:
        try:
            fn, args = connection.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        try:
            answer: tuple[str, Any] = ("ok", fn(*args))
        except Exception as error:
            answer = ("raise", error)
        try:
            connection.send(answer)
        except Exception as error:  # an answer or exception that does not pickle
            connection.send(("raise", RuntimeError(f"{type(error).__name__}: {error}")))


@dataclass(eq=False)
class _Worker:
    process: Any
    connection: Connection

    @classmethod
    def start(cls) -> _Worker:
        # spawn, not fork: the server has threads (the thread pool, SQLite) that fork would copy mid-state.
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        process = context.Process(
            target=_serve, args=(theirs,), daemon=True, name="tilegames-worker"
        )
        process.start()
        theirs.close()
        return cls(process, ours)

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.process.kill()
        with contextlib.suppress(Exception):
            self.connection.close()
        with contextlib.suppress(Exception):
            self.process.join(5)


@dataclass(eq=False)
class _Job:
    requester: Requester | None
    expected: float = 1.0
    """How long a job of its kind runs, by the running average when it was admitted."""
    started: float | None = None


def _settle(ready: asyncio.Future[None]) -> None:
    """Mark the worker's answer as ready (the event loop may call this more than once before it is read)."""
    if not ready.done():
        ready.set_result(None)


def kind(fn: Callable[..., Any]) -> str:
    """The name jobs are averaged under: the function's module and name."""
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', type(fn).__name__)}"


@dataclass
class Workers:
    """Runs functions in worker processes from async code: ``await workers.run(fn, *args, timeout=s)``.

    ``processes`` workers, at most ``queue`` jobs waiting for one. Workers start on first use.
    """

    processes: int = 2
    queue: int = 16
    restarts: int = 0
    """Workers killed (past a time limit) or found dead, and replaced."""
    typical: dict[str, float] = field(default_factory=dict)
    """A running average of how long each kind of job (see :func:`kind`) runs, in seconds (1 s until one has
    run), to tell a job how long it would wait."""
    warmup: Callable[[], Any] | None = None
    """Run by a worker started to replace a killed one before it takes a job, so the next job's clock is not
    spent importing and loading compiled kernels (the first workers are warmed by the app's start-up)."""
    _idle: list[_Worker] = field(default_factory=list)
    _all: set[_Worker] = field(default_factory=set)
    _waiting: collections.deque[asyncio.Future[_Worker]] = field(default_factory=collections.deque)
    _jobs: dict[_Job, None] = field(default_factory=dict)
    """Admitted jobs, waiting or running, in the order they came (a dict as an ordered set)."""

    def _start(self) -> None:
        while len(self._all) < self.processes:
            worker = _Worker.start()
            self._all.add(worker)
            self._idle.append(worker)

    def _release(self, worker: _Worker) -> None:
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(worker)
                return
        self._idle.append(worker)

    def _replace(self, worker: _Worker) -> None:
        """Kill a worker and start another, handed out once it is warm."""
        worker.kill()
        self._all.discard(worker)
        self.restarts += 1
        fresh = _Worker.start()
        self._all.add(fresh)
        if self.warmup is None:
            self._release(fresh)
            return
        warming = asyncio.ensure_future(
            self._execute(fresh, _Job(None), self.warmup, (), 180.0, learn=False)
        )
        warming.add_done_callback(lambda t: None if t.cancelled() else t.exception())

    def _admit(self, requester: Requester | None, timeout: float) -> None:
        if requester is not None:
            mine = [
                job
                for job in self._jobs
                if job.requester is not None
                and job.requester.active
                and job.requester.client == requester.client
            ]
            if mine:
                began = mine[0].started or time.monotonic()
                raise WorkerError(
                    "one_at_a_time",
                    "you already have a solve, hint or deal running; wait for it to finish",
                    began + mine[0].expected - time.monotonic(),
                )
        if self._idle and not self._waiting:
            return
        if len(self._waiting) >= self.queue:
            raise WorkerError(
                "busy", "the server is busy with other solves; try again in a moment", self._wait()
            )
        if self._wait() > timeout:
            raise WorkerError(
                "busy",
                f"the server is busy: this would wait longer than its {timeout:g} s limit; try again soon",
                self._wait(),
            )

    def _wait(self) -> float:
        """How long a job joining the queue now would wait: the running jobs' expected ends, then the waiting
        jobs' expected times handed out in turn to the first worker free."""
        now = time.monotonic()
        running = [j for j in self._jobs if j.started is not None]
        free = [max(0.0, j.started + j.expected - now) for j in running if j.started is not None]
        free = sorted(free)[: self.processes] + [0.0] * max(0, self.processes - len(free))
        heapq.heapify(free)
        for job in self._jobs:
            if job.started is None:
                heapq.heappush(free, heapq.heappop(free) + job.expected)
        return free[0]

    def expect(self, fn: Callable[..., Any]) -> float:
        """How long a job running ``fn`` is expected to take (1 s until one has run)."""
        return self.typical.get(kind(fn), 1.0)

    async def _acquire(self, timeout: float) -> _Worker:
        if self._idle and not self._waiting:
            return self._idle.pop()
        waiter: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        try:
            return await asyncio.wait_for(asyncio.shield(waiter), timeout)
        except (TimeoutError, asyncio.CancelledError) as error:
            if waiter.done() and not waiter.cancelled():
                self._release(waiter.result())  # handed a worker just as we gave up: pass it on
            else:
                waiter.cancel()
                with contextlib.suppress(ValueError):
                    self._waiting.remove(waiter)
            if isinstance(error, TimeoutError):
                raise WorkerError(
                    "busy",
                    f"the server is busy: no worker was free within {timeout:g} s; try again soon",
                    self._wait(),
                ) from None
            raise

    async def run(self, fn: Callable[..., T], *args: Any, timeout: float) -> T:
        """``fn(*args)`` in a worker; ``timeout`` counts from when a worker takes the job, and also bounds the
        wait for one. Raises :class:`WorkerError`, or the exception ``fn`` raised."""
        self._start()
        behind = BACKGROUND.get()
        requester = None if behind else REQUESTER.get()
        spare = await self._spare(timeout) if behind else None  # unseen by admission until then
        if spare is None:
            self._admit(requester, timeout)
        job = _Job(requester, self.expect(fn))
        self._jobs[job] = None
        try:
            worker = spare if spare is not None else await self._acquire(timeout)
            # The job runs to its end (or its limit) even if the request is cancelled, so the worker is
            # handed back in a known state.
            task = asyncio.ensure_future(self._execute(worker, job, fn, args, timeout))
            task.add_done_callback(lambda t: None if t.cancelled() else t.exception())
            return await asyncio.shield(task)
        finally:
            self._jobs.pop(job, None)

    async def _spare(self, timeout: float) -> _Worker:
        """A worker for background work, once one is idle with another idle beside it (with one process:
        once it is idle) and no job waits; ``busy`` after ``timeout`` seconds without."""
        deadline = time.monotonic() + timeout
        keep = 1 if self.processes > 1 else 0
        while not (len(self._idle) > keep and not self._waiting):
            if time.monotonic() >= deadline:
                raise WorkerError(
                    "busy", f"no spare worker for background work within {timeout:g} s"
                )
            await asyncio.sleep(0.05)
        return self._idle.pop()

    async def _execute(
        self,
        worker: _Worker,
        job: _Job,
        fn: Callable[..., T],
        args: tuple[Any, ...],
        timeout: float,
        learn: bool = True,
    ) -> T:
        loop = asyncio.get_running_loop()
        job.started = time.monotonic()
        ready: asyncio.Future[None] = loop.create_future()
        fd = worker.connection.fileno()
        try:
            worker.connection.send((fn, args))
            loop.add_reader(fd, _settle, ready)
            try:
                await asyncio.wait_for(ready, timeout)
            finally:
                loop.remove_reader(fd)
            kind, value = worker.connection.recv()
        except TimeoutError:
            self._replace(worker)
            if learn:
                self._learn(fn, timeout)
            raise WorkerError(
                "timeout", f"the job took longer than {timeout:g} s and was stopped"
            ) from None
        except (EOFError, OSError):
            self._replace(worker)
            raise WorkerError("crashed", "a worker process stopped; try again") from None
        if learn:
            self._learn(fn, time.monotonic() - job.started)
        self._release(worker)
        if kind == "raise":
            raise value
        result: T = value
        return result

    def _learn(self, fn: Callable[..., Any], seconds: float) -> None:
        name = kind(fn)
        self.typical[name] = 0.7 * self.typical.get(name, seconds) + 0.3 * seconds

    def close(self) -> None:
        """Kill every worker (a job still running is abandoned)."""
        workers, self._all, self._idle = list(self._all), set(), []
        for worker in workers:
            worker.kill()
