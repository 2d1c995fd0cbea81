import xml.etree.ElementTree as ET

from tilegames.klotski import LAYOUTS
from tilegames.klotski.render import svg


def test_svg_draws_every_piece_with_its_letter():
    board = LAYOUTS["横刀立马"]
    root = ET.fromstring(svg(board))
    ns = "{http://www.w3.org/2000/svg}"
    texts = [t.text for t in root.iter(f"{ns}text")]
    assert sorted(texts) == sorted(p.letter for p in board.pieces)
    assert len(list(root.iter(f"{ns}rect"))) == 3 + len(board.pieces)
    assert board._repr_svg_() == svg(board)
    assert "<text" not in svg(board, letters=False)
