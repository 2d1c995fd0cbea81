"""Bench: cold starts of the `tilegames` command (issue 11 §2), hyperfine-style, against a baseline tree.

Each command runs as a fresh process several times, interleaved with the same command run from a baseline
source tree (by default `main`, exported with `git archive` into a temporary directory and put first on
PYTHONPATH), so both see the same machine load; one untimed run of each first fills numba's on-disk cache.
Reports min and median wall time per command and tree.

Run: `.venv/bin/python -m bench.cold_start [--runs 7] [--baseline main]` (targets: ≤ 0.3 s for 横刀立马 and a
3×3, ≤ 0.6 s for a Korf 15-puzzle with the 6-6-3 tables already cached). The Korf solve uses the PDB IDA*
kernel compiled ahead of time when it is in the cache (`python -m tilegames.slide.solve.pdb_aot DIR` first, or
the untimed first run starts its build in the background: wait for `DIR/aot/*.so` before timing).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KORF_12 = "14 1 9 6/4 8 12 5/7 2 3 0/10 11 13 15"  # Korf's instance 12, 45 moves
KORF_GOAL = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"
COMMANDS: dict[str, list[str]] = {
    "--help": ["--help"],
    "klotski solve 横刀立马": ["klotski", "solve", "横刀立马"],
    "slide solve 3×3": ["slide", "solve", "8 6 7/2 5 4/3 0 1"],  # a hardest 8-puzzle: 31 moves
    "slide solve Korf #12": ["slide", "solve", KORF_12, "--goal", KORF_GOAL],
}


def run_once(tree: Path | None, argv: list[str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one fresh `python -m tilegames ARGV` (from `tree` when
    given, else this tree). CPU time barely depends on what else the machine runs; wall time does."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "tilegames", *argv],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        cwd=tempfile.gettempdir(),  # so `-m tilegames` does not pick up the current directory
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def export(revision: str) -> Path:
    """The package of `revision`, exported once into the temporary directory (not checked out: no worktree
    is touched) and kept there, with numba's cache beside it, for the next run."""
    sha = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", revision], check=True, capture_output=True, text=True
    ).stdout.strip()
    into = Path(tempfile.gettempdir()) / f"tilegames-baseline-{sha[:12]}"
    if (into / "tilegames").is_dir():
        return into
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision, "tilegames"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument(
        "--baseline", default="main", help="git revision to compare with ('' for none)"
    )
    args = parser.parse_args()
    trees: dict[str, Path | None] = {"this tree": None}
    if args.baseline:
        trees = {args.baseline: export(args.baseline), **trees}
    print(
        f"{args.runs} fresh processes per cell, interleaved; seconds: wall min / median, CPU median"
    )
    print(f"{'command':<24}" + "".join(f"{name:>30}" for name in trees))
    for label, argv in COMMANDS.items():
        walls: dict[str, list[float]] = {name: [] for name in trees}
        cpus: dict[str, list[float]] = {name: [] for name in trees}
        for tree in trees.values():
            run_once(tree, argv)  # fill numba's disk cache for this tree; not timed
        for _ in range(args.runs):
            for name, tree in trees.items():
                wall, cpu = run_once(tree, argv)
                walls[name].append(wall)
                cpus[name].append(cpu)
        cells = (
            f"{min(walls[n]):.3f} / {statistics.median(walls[n]):.3f}, {statistics.median(cpus[n]):.3f}"
            for n in trees
        )
        print(f"{label:<24}" + "".join(f"{cell:>30}" for cell in cells), flush=True)


if __name__ == "__main__":
    main()
