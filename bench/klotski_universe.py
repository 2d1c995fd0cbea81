"""Bench: the whole 4×5 Klotski universe enumerated, grouped, every layout's distance to the exit computed.

Run: `.venv/bin/python -m bench.klotski_universe [--rounds N] [--old REV]`. Each round computes the universe from
nothing in a fresh process (kernels compiled and warmed on a 3×4 board first, not timed), with this tree's code
and, with `--old`, with the code of git revision REV (interleaved, so both see the same machine load). Prints
the computation's wall and CPU time (all threads; the whole process's CPU with start-up and warm-up beside it),
the load average at its end, wall time per stage, peak memory (max RSS of the process) and the counts, compared
with the strongest public analyser's: 29,334,498 layouts in 25,422 groups.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PEER_LAYOUTS, PEER_GROUPS = 29_334_498, 25_422
OLD_DEFAULT = "6c588a6"
"""The last revision with the bucketed binary-search universe (101–120 s)."""


def old_package(revision: str) -> Path:
    """A directory holding the universe modules of `revision` as top-level modules (kept, so numba caches)."""
    place = Path(tempfile.gettempdir()) / f"tilegames-universe-{revision}"
    place.mkdir(exist_ok=True)
    for name in ("universe", "universe_kernels"):
        text = subprocess.run(
            ["git", "show", f"{revision}:tilegames/klotski/{name}.py"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        text = text.replace(
            "from tilegames.klotski import universe_kernels as uk",
            "import old_universe_kernels as uk",
        )
        target = place / f"old_{name}.py"
        if not target.exists() or target.read_text() != text:
            target.write_text(text)
    return place


def worker(which: str) -> None:
    """Compute the 4×5 universe once with `which` ("new" or "old:REV") and print its figures as JSON."""
    if which == "new":
        from tilegames.klotski.universe import compute
    else:
        sys.path.insert(0, str(old_package(which.split(":", 1)[1])))
        from old_universe import compute  # type: ignore[import-not-found]
    compute(3, 4, progress=False)  # compile or load the kernels: not timed
    started, cpu_started = time.perf_counter(), time.process_time()
    result = compute(4, 5, progress=False)
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu_started  # every thread of the process, warm-up excluded
    print(
        json.dumps(
            {
                "wall": round(wall, 2),
                "compute_cpu": round(cpu, 2),
                "load": round(os.getloadavg()[0], 1),
                "stages": result.stage_seconds,
                "layouts": result.layouts,
                "groups": result.groups,
                "solvable_layouts": result.solvable_layouts,
                "solved_layouts": result.solved_layouts,
                "hardest": max(e.hardest for e in result.piece_sets),
            }
        )
    )


def run(which: str) -> dict:
    """One fresh process; its figures and its peak memory."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.klotski_universe", "--worker", which],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"{which} failed with exit status {process.returncode}")
    figures = json.loads(output.strip().splitlines()[-1])
    figures["peak_mb"] = round(usage.ru_maxrss / 1024)
    figures["cpu"] = round(usage.ru_utime + usage.ru_stime, 1)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--old", nargs="?", const=OLD_DEFAULT, default=None, metavar="REV")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    contenders = ["new"] + ([f"old:{args.old}"] if args.old else [])
    for round_ in range(1, args.rounds + 1):
        for which in contenders:
            f = run(which)
            same = (f["layouts"], f["groups"]) == (PEER_LAYOUTS, PEER_GROUPS)
            print(
                f"round {round_} {which:>12}: {f['wall']:6.1f} s wall, {f['compute_cpu']:6.1f} s CPU "
                f"({f['cpu']:.1f} s with start-up and warm-up), load {f['load']}, "
                f"peak {f['peak_mb']} MB; stages {f['stages']}; layouts {f['layouts']:,} groups "
                f"{f['groups']:,} ({'same as' if same else 'DIFFERENT from'} the peer), solvable "
                f"{f['solvable_layouts']:,}, solved {f['solved_layouts']:,}, hardest {f['hardest']}",
                flush=True,
            )


if __name__ == "__main__":
    main()
