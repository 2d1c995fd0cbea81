"""Generate the arcade's Klotski level pack: layouts graded by proven optimal length, from the whole-space analysis.

Run once (about 30+ s and 700 MB for the 4×5 universe, then cached); the committed result is
``tilegames/klotski/pack.tsv`` (name, layout, optimal), which the server reads instead of the universe:

    .venv/bin/python scripts/klotski_pack.py [--levels 112] [--seed 2026]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tilegames.klotski.universe import universe

OUT = Path(__file__).resolve().parent.parent / "tilegames" / "klotski" / "pack.tsv"
EASIEST, HARDEST = 10, 138


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, default=112)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    space = universe(progress=False)
    step = (HARDEST - EASIEST) / (args.levels - 1)
    rows = ["name\tlayout\toptimal"]
    for level in range(args.levels):
        distance = round(EASIEST + level * step)
        (rated,) = space.at_distance(distance, count=1, seed=args.seed + level)
        rows.append(f"Level {level + 1}\t{rated.layout}\t{rated.distance}")
    OUT.write_text("\n".join(rows) + "\n", encoding="utf-8")
    print(f"{args.levels} levels, {EASIEST}..{HARDEST} moves, written to {OUT}")


if __name__ == "__main__":
    main()
