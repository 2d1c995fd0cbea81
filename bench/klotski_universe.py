"""Bench: the whole 4×5 Klotski universe enumerated, grouped, every layout's distance to the exit computed.

Run: `.venv/bin/python -m bench.klotski_universe [--cache DIR]` (always recomputes; prints the figures and the time,
and compares the counts with the strongest public analyser's: 29,334,498 layouts in 25,422 groups).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tilegames.klotski.universe import universe

PEER_LAYOUTS, PEER_GROUPS = 29_334_498, 25_422


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cache", default=None, help="cache directory (default $TILEGAMES_CACHE or user cache)"
    )
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args()
    started = time.perf_counter()
    result = universe(4, 5, cache_dir=args.cache, progress=not args.no_progress, recompute=True)
    wall = time.perf_counter() - started
    print(
        f"machine: {os.cpu_count()} cores; wall time {wall:.1f} s (compute {result.seconds:.1f} s)"
    )
    print("stages (s):", result.stage_seconds)
    print(
        f"layouts {result.layouts:,} (peer {PEER_LAYOUTS:,}: {'same' if result.layouts == PEER_LAYOUTS else 'DIFFERENT'})"
    )
    print(
        f"groups {result.groups:,} (peer {PEER_GROUPS:,}: {'same' if result.groups == PEER_GROUPS else 'DIFFERENT'})"
    )
    print(
        f"solvable groups {result.solvable_groups:,}, solvable layouts {result.solvable_layouts:,}"
    )
    print(f"solved layouts {result.solved_layouts:,}, largest group {result.largest_group:,}")
    print(
        f"mirror folded: {result.mirror_folded_layouts:,} layouts in {result.mirror_folded_groups:,} groups"
    )
    print(f"piece sets {len(result.piece_sets)}; cache {result.path}")
    for entry in result.piece_sets[:12]:
        print(
            f"  h{entry.horizontal} v{entry.vertical} s{entry.singles}: hardest {entry.hardest} moves "
            f"({entry.hardest_count} layouts) e.g. {entry.hardest_layouts[:2]}"
        )
    classic = next(
        e for e in result.piece_sets if (e.horizontal, e.vertical, e.singles) == (1, 4, 4)
    )
    print(
        "classic piece set (1 horizontal, 4 vertical, 4 singles):",
        json.dumps(classic.__dict__, ensure_ascii=False),
    )


if __name__ == "__main__":
    main()
