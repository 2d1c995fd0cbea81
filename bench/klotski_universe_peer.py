"""Bench: the whole 4×5 Klotski universe, ours beside dnomd343/klotski's C++ engine (Python binding `py-klotski`).

Run: `.venv/bin/python -m bench.klotski_universe_peer [--rounds N]`. Each round runs, in fresh processes, our
`compute(4, 5)` (enumerate, group, every distance) and the peer's enumeration (`Cases.all_cases`), its group list
(the 203 `GroupUnion`s' group counts, from its stored tables) and the layouts of every piece set
(`GroupUnion.cases()`); py-klotski 0.0.2 cannot hand its `Group` objects to Python, so the peer's search of each
group is out of reach from the binding (it computes no distances anyway).
Skips, with the reason, when `py-klotski` is not installed; docs/benchmarks.md says how to build it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.klotski_universe import PEER_GROUPS, PEER_LAYOUTS, run  # noqa: E402


def peer_worker() -> None:
    """Time the peer's stages in this process and print them as JSON."""
    import klotski  # the peer's binding

    figures: dict[str, float | int] = {}
    started = time.perf_counter()
    figures["layouts"] = len(klotski.Cases.all_cases)
    figures["enumerate"] = round(time.perf_counter() - started, 2)
    started = time.perf_counter()
    unions = [klotski.GroupUnion(kind) for kind in range(203)]
    figures["groups"] = sum(union.group_num for union in unions)
    figures["list groups"] = round(time.perf_counter() - started, 2)
    started = (
        time.perf_counter()
    )  # py-klotski 0.0.2 cannot return its Group objects (pybind11 error)
    figures["grouped layouts"] = sum(len(union.cases()) for union in unions)
    figures["cases per piece set"] = round(time.perf_counter() - started, 2)
    print(json.dumps(figures))


def run_peer() -> dict:
    """The peer in a fresh process, with its peak memory."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.klotski_universe_peer", "--worker"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit("the peer failed")
    figures = json.loads(output.strip().splitlines()[-1])
    figures["peak_mb"] = round(usage.ru_maxrss / 1024)
    figures["cpu"] = round(usage.ru_utime + usage.ru_stime, 1)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        peer_worker()
        return
    try:
        import klotski  # noqa: F401
    except ImportError as error:
        print(
            f"skipped: the peer's binding py-klotski is not installed ({error}); see docs/benchmarks.md"
        )
        return
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    for round_ in range(1, args.rounds + 1):
        ours = run("new")
        print(
            f"round {round_} ours: {ours['wall']:.1f} s wall, {ours['cpu']:.1f} s CPU, peak {ours['peak_mb']} MB, "
            f"stages {ours['stages']}, {ours['layouts']:,} layouts in {ours['groups']:,} groups",
            flush=True,
        )
        peer = run_peer()
        total = peer["enumerate"] + peer["list groups"]
        print(
            f"round {round_} peer: enumerate {peer['enumerate']} s, list groups {peer['list groups']} s, "
            f"cases per piece set {peer['cases per piece set']} s, "
            f"{peer['cpu']} s CPU, peak {peer['peak_mb']} MB; {peer['layouts']:,} layouts, "
            f"{peer['groups']:,} groups covering {peer['grouped layouts']:,} layouts "
            f"({'same' if (peer['layouts'], peer['groups']) == (PEER_LAYOUTS, PEER_GROUPS) else 'DIFFERENT'}); "
            f"ratio ours (everything) / peer (enumerate + list groups) {ours['wall'] / total:.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
