"""tilegames: the sliding puzzle, Klotski and Lianliankan, with fair deals, optimal solvers and an arcade."""

__version__ = "0.1.0"
