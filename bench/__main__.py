"""`make bench`: list the benchmarks and how to run each; the figures are in docs/benchmarks.md."""

import pkgutil
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    print("Benchmarks (run from the repository root; figures and machine in docs/benchmarks.md):")
    for module in sorted(info.name for info in pkgutil.iter_modules([str(HERE)])):
        if module.startswith("_") or module.endswith("_runner"):
            continue
        doc = (__import__(f"bench.{module}", fromlist=["__doc__"]).__doc__ or "").strip()
        print(f"  .venv/bin/python -m bench.{module:<20} {doc.splitlines()[0] if doc else ''}")


if __name__ == "__main__":
    main()
