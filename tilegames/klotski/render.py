"""SVG pictures of Klotski boards (for the web page and for Jupyter via ``Board._repr_svg_``)."""

from __future__ import annotations

from html import escape

from tilegames.klotski.board import Board, exit_columns

COLOURS = {1: "#8fbc8f", 2: "#6495ed", 3: "#daa520", 4: "#cd5c5c"}
"""Fill per occupant type: 1×1, 1×2, 2×1, 2×2."""


def svg(board: Board, *, cell: int = 40, letters: bool = True) -> str:
    """An SVG image of the board: pieces coloured by shape, the exit marked under the bottom row."""
    pad = cell // 8
    width, height = board.width * cell + 2 * pad, board.height * cell + 2 * pad + pad
    kinds = {(1, 1): 1, (1, 2): 2, (2, 1): 3, (2, 2): 4}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
        f'<rect x="0" y="0" width="{width}" height="{height}" rx="{pad}" fill="#3b2f2f"/>',
        f'<rect x="{pad}" y="{pad}" width="{board.width * cell}" height="{board.height * cell}" fill="#f5ecd7"/>',
    ]
    left = min(exit_columns(board.width))
    parts.append(
        f'<rect x="{pad + left * cell}" y="{pad + board.height * cell}" width="{2 * cell}" height="{pad}" fill="#f5ecd7"/>'
    )
    gap = max(1, cell // 20)
    for piece in board.pieces:
        x, y = pad + piece.column * cell + gap, pad + piece.row * cell + gap
        w, h = piece.width * cell - 2 * gap, piece.height * cell - 2 * gap
        fill = COLOURS[kinds[(piece.height, piece.width)]]
        parts.append(
            f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{cell // 8}" fill="{fill}" stroke="#333"/>'
        )
        if letters:
            parts.append(
                f'<text x="{x + w / 2}" y="{y + h / 2}" font-family="sans-serif" font-size="{cell // 2}" '
                f'text-anchor="middle" dominant-baseline="central">{escape(piece.letter)}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)
