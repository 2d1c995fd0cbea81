"""Solve every named Klotski layout once and keep its optimal length, for the arcade's level screen.

The named layouts are few (about 40) but a solve takes up to seconds each, so the lengths are committed in
``tilegames/klotski/named_optimal.tsv`` (alias, optimal; '-' when it has no solution) rather than solved at server start:

    .venv/bin/python scripts/klotski_named_optimal.py
"""

from __future__ import annotations

from pathlib import Path

from tilegames import klotski

OUT = Path(__file__).resolve().parent.parent / "tilegames" / "klotski" / "named_optimal.tsv"


def main() -> None:
    rows = ["alias\toptimal"]
    for named in klotski.NAMED_LAYOUTS:
        solution = klotski.solve(named.board, "moves")
        if solution is not None and not solution.optimal:
            raise SystemExit(f"{named.alias}: no optimal solution found")
        length = "-" if solution is None else str(solution.length)  # '-': no solution at all
        rows.append(f"{named.alias}\t{length}")
        print(named.alias, length, flush=True)
    OUT.write_text("\n".join(rows) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
