"""A randomised greedy dive under gravity: play to the end without looking back.

With gravity the depth-first search can spend its whole budget under one early mistake. A dive
costs one node per pair and either clears the board (a solution) or gets stuck (nothing is
learnt, nothing is claimed), so the search interleaves dives with its restarts. The dive takes
the safe macro moves (`kernels.expand`) and otherwise the pair whose higher tile is highest on
the board, give or take `noise` rows: a pair reaching the top makes little fall, and the tiles
buried low are left for when their columns have shrunk. Scoring a pair by the sum of its two
rows instead, as first written, cleared 24x12 with 72 kinds x 4 seed 96 in none of 6,600 dives
(a pair with one tile high and one deep scored like two middling tiles); the higher tile clears
it in about one dive in 300. On the arcade's 24x12 boards with 72 kinds this clears deals that
the depth-first search leaves undecided after 10 s.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tilegames.link.kernels import expand, remove_falling


@njit(cache=True, nogil=True)
def dive(
    grid: np.ndarray, count: np.ndarray, noise: np.ndarray, limit: int
) -> tuple[np.ndarray, bool]:
    """One dive from `grid` (padded, kinds 1..K, tiles resting as gravity leaves them) with
    `count[k]` tiles of kind k: (the pairs played as rows r1 c1 r2 c2, cleared?).

    `noise` holds the random offsets (in rows) added to the pairs' heights (the row of the higher
    tile; smaller is higher), used in turn and cyclically (drawn by the caller from its seeded
    generator). Plays at most `limit` pairs; the arrays passed in are not changed.
    """
    grid = grid.copy()
    count = count.copy()
    left = 0
    for k in range(count.shape[0]):
        left += count[k]
    played = np.empty((left // 2 + 1, 4), np.int64)
    made = 0
    draw = 0
    while left > 0 and made < limit:
        moves, forced = expand(grid, count, True, True, False)
        n = moves.shape[0]
        if n == 0:
            break
        take = forced if forced > 0 else 1
        if forced == 0:
            best = 0
            best_score = 1e300
            for i in range(n):
                score = min(moves[i, 0], moves[i, 2]) + noise[draw]
                draw = draw + 1 if draw + 1 < noise.shape[0] else 0
                if score < best_score:
                    best_score = score
                    best = i
            moves = moves[best : best + 1]
        for q in range(take):
            if made >= limit:
                break
            r1, c1, r2, c2 = moves[q, 0], moves[q, 1], moves[q, 2], moves[q, 3]
            count[grid[r1, c1]] -= 2
            left -= 2
            remove_falling(grid, r1, c1, r2, c2)
            played[made, 0], played[made, 1], played[made, 2], played[made, 3] = r1, c1, r2, c2
            made += 1
    return played[:made], left == 0
