"""Analysis mode's jobs (GET /api/games/{id}/analysis): time per position and how often the answer is exact,
per game and size, with the limits the server uses. Each job runs once untimed first (kernels, databases).

Run: .venv/bin/python -m bench.analysis_jobs [--deals 10] [--seed 1]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from tilegames import klotski, link, slide
from tilegames.web import analysis, analysis_tasks
from tilegames.web.limits import ServerLimits, klotski_max_states

SECONDS = ServerLimits().solve_seconds * 0.8  # what the server gives a sliding-puzzle analysis


def run(name: str, jobs: list[Callable[[], dict[str, Any]]]) -> None:
    jobs[0]()  # warm
    times, exact = [], 0
    for job in jobs:
        began = time.perf_counter()
        answer = job()
        times.append(time.perf_counter() - began)
        exact += bool(answer.get("exact"))
    times.sort()
    print(
        f"{name:<34} n={len(jobs):<3} median {statistics.median(times):7.3f} s"
        f"  max {times[-1]:7.3f} s  exact {exact}/{len(jobs)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    n, seed = args.deals, args.seed

    layouts = [str(named.board) for named in klotski.NAMED_LAYOUTS[:n]]
    run(
        "klotski named layouts (start)",
        [
            lambda text=text: analysis_tasks.klotski_analysis(text, klotski_max_states(4, 5))
            for text in layouts
        ],
    )
    for (w, h), distance in (((3, 3), None), ((4, 4), 30), ((4, 4), 50), ((4, 4), None)):
        boards = [str(slide.random_board(w, h, seed=seed + i, distance=distance)) for i in range(n)]
        run(
            f"slide {w}x{h} {'uniform' if distance is None else f'distance {distance}'}",
            [
                lambda text=text: analysis_tasks.slide_analysis(text, analysis.SLIDE_NODES, SECONDS)
                for text in boards
            ],
        )
    for w, h, kinds in ((6, 4, 3), (14, 6, 21), (18, 8, 36)):
        boards = [str(link.deal(w, h, kinds, seed=seed + i)) for i in range(n)]
        run(
            f"link {w}x{h} {kinds} kinds",
            [
                lambda text=text: analysis_tasks.link_analysis(
                    text, False, analysis.LINK_NODES, analysis.LINK_PAIRS
                )
                for text in boards
            ],
        )


if __name__ == "__main__":
    main()
