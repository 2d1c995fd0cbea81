import json
from collections import deque

import networkx as nx
import numpy as np

from tilegames.klotski import LAYOUTS, Board
from tilegames.klotski.solve import grid_neighbours, is_solved_grid, mirror_grid
from tilegames.klotski.space import analyse, board_from_key, reachable


def reference_reachable(board: Board, metric: str = "moves") -> dict[tuple, int]:
    """Plain BFS: every reachable grid and its distance to the nearest win (-1 if none)."""
    w, h = board.width, board.height
    seen = {board.types()}
    queue = deque(seen)
    while queue:
        for nxt in grid_neighbours(queue.popleft(), w, h, metric):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    distance = {g: 0 for g in seen if is_solved_grid(g, w, h)}
    queue = deque(distance)
    while queue:
        g = queue.popleft()
        for nxt in grid_neighbours(g, w, h, metric):
            if nxt not in distance:
                distance[nxt] = distance[g] + 1
                queue.append(nxt)
    return {g: distance.get(g, -1) for g in seen}


def test_heng_dao_li_ma_reaches_25955_positions_13011_mirror_folded():
    result = analyse(LAYOUTS["横刀立马"])
    assert (result.positions, result.positions_mirror_folded) == (25955, 13011)
    assert result.distance == 81
    assert sum(result.histogram) == result.positions
    assert result.histogram[0] == result.solved_positions
    assert result.max_distance == len(result.histogram) - 1
    for text in result.farthest:
        assert Board.parse(text) in [
            board_from_key(int(k), 4, 5)
            for k in result.keys[result.distances == result.max_distance]
        ]


def test_analysis_matches_the_reference_in_both_metrics():
    for text in ["BBAA/.CAA/DCEF/.GEH", "BAAC/.AAD/EF.G/HHIJ", "AAB/AAC/DE./.FF"]:
        board = Board.parse(text)
        for metric in ("moves", "steps"):
            result = analyse(board, metric)
            expected = reference_reachable(board, metric)
            got = {
                board_from_key(int(k), board.width, board.height).types(): int(d)
                for k, d in zip(result.keys, result.distances, strict=True)
            }
            assert got == expected
            folded = {min(g, mirror_grid(g, board.width)) for g in expected}
            assert result.positions_mirror_folded == len(folded)


def test_zou_tou_wu_lu_has_no_solved_position():
    result = analyse(LAYOUTS["走投无路"])
    assert result.distance is None and result.max_distance is None and result.solved_positions == 0
    assert (result.distances == -1).all() and result.farthest == []


def test_node_link_export_loads_in_networkx(tmp_path):
    result = analyse(LAYOUTS["捷足先登"])
    path = tmp_path / "graph.json"
    path.write_text(json.dumps(result.node_link(), ensure_ascii=False))
    graph = nx.node_link_graph(json.loads(path.read_text()))
    assert graph.number_of_nodes() == result.positions
    assert graph.number_of_edges() == len(result.edges)
    assert nx.is_connected(graph)
    assert graph.nodes[0]["layout"] == str(Board.parse(result.layout)) or Board.parse(
        graph.nodes[0]["layout"]
    ) == Board.parse(result.layout)
    wins = [n for n, d in graph.nodes(data=True) if d["distance"] == 0]
    lengths = nx.multi_source_dijkstra_path_length(graph, wins)
    assert all(graph.nodes[n]["distance"] == lengths[n] for n in graph)
    for a, b in list(graph.edges)[:200]:
        assert Board.parse(graph.nodes[a]["layout"]) != Board.parse(graph.nodes[b]["layout"])


def test_reachable_fold_counts_pairs_once():
    keys = reachable(LAYOUTS["横刀立马"], fold=True)
    assert len(keys) == 13011 and len(np.unique(keys)) == 13011
