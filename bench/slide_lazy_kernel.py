"""The lazy PDB kernel against the eager one: the same weighted searches, interleaved, nodes per second.

    TILEGAMES_CACHE=DIR .venv/bin/python -m bench.slide_lazy_kernel [--nodes 3000000] [--rounds 2]

Four of Korf & Felner's 24-puzzles, weights 3/2 and 5/4, with and without linear conflicts; each search
runs with `pdb_kernels.ida_pdb` and then with `lazy_kernels.ida_pdb_lazy` (same status, length and node
count, checked here), and the CPU seconds of each are summed. The first round only compiles and warms.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bench.slide_24 import korf_felner_24
from tilegames.slide import Board
from tilegames.slide.solve import pdb_kernels
from tilegames.slide.solve.common import relabel
from tilegames.slide.solve.ida import pattern_heuristic
from tilegames.slide.solve.lazy_kernels import ida_pdb_lazy

INSTANCES = (1, 14, 24, 37)
WEIGHTS = ((3, 2), (5, 4))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=3_000_000, help="node limit of each search")
    parser.add_argument("--rounds", type=int, default=2, help="rounds; the first one warms up")
    args = parser.parse_args()
    rows = korf_felner_24()
    goal = Board(5, 5, list(range(25)))
    pdb = pattern_heuristic(5, 5, 0, None)
    kernels = (("eager", pdb_kernels.ida_pdb), ("lazy", ida_pdb_lazy))
    seconds: dict[tuple[str, bool], float] = {}
    nodes: dict[tuple[str, bool], int] = {}
    for round_ in range(args.rounds):
        for number in INSTANCES:
            state, blank = relabel(Board(5, 5, rows[number - 1][3]), goal)
            tables = (pdb.group_of, pdb.glabels, pdb.gk, pdb.factors, pdb.tables, pdb.refl)
            for use_lc in (True, False):
                for wnum, wden in WEIGHTS:
                    results = []
                    for name, kernel in kernels:
                        path = np.zeros(999, np.int64)
                        cpu = time.process_time()
                        result = kernel(
                            state,
                            5,
                            5,
                            blank,
                            *tables,
                            use_lc,
                            wnum,
                            wden,
                            args.nodes,
                            np.inf,
                            path,
                        )
                        cpu = time.process_time() - cpu
                        results.append(tuple(map(int, result)))
                        if round_:
                            key = (name, use_lc)
                            seconds[key] = seconds.get(key, 0.0) + cpu
                            nodes[key] = nodes.get(key, 0) + int(result[2])
                    assert results[0] == results[1], (number, use_lc, results)
    for (name, use_lc), spent in seconds.items():
        count = nodes[(name, use_lc)]
        print(
            f"{name:5s} linear conflicts {'on ' if use_lc else 'off'}: {count:,} nodes in "
            f"{spent:.2f} s CPU = {count / spent / 1e6:.2f} M nodes/s"
        )


if __name__ == "__main__":
    main()
