from pathlib import Path

import pytest

from tilegames.klotski import LAYOUTS, NAMED_LAYOUTS, Board, UnknownLayoutError, layout

# The public reference list sits beside the checkout (../shared/data), where the project keeps it.
REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "data" / "klotski_layouts.tsv"


@pytest.mark.skipif(not REFERENCE.exists(), reason="../shared/data is not beside this checkout")
def test_the_table_matches_the_shared_reference_data():
    shared = {}
    with REFERENCE.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip() and not line.startswith("#") and not line.startswith("name\t"):
                name, text = line.rstrip("\n").split("\t")
                shared[name] = text
    assert {e.name: e.layout for e in NAMED_LAYOUTS} == shared
    assert len(NAMED_LAYOUTS) == 43


def test_names_and_aliases_are_unique_and_lead_to_the_same_board():
    aliases = [e.alias for e in NAMED_LAYOUTS]
    assert len(set(aliases)) == len(aliases)
    assert all(alias == alias.lower() and " " not in alias for alias in aliases)
    assert len(LAYOUTS) == 2 * len(NAMED_LAYOUTS)
    for entry in NAMED_LAYOUTS:
        assert LAYOUTS[entry.name] == LAYOUTS[entry.alias] == Board.parse(entry.layout)
    assert str(LAYOUTS["heng-dao-li-ma"]) == "ABBC/ABBC/DEEF/DGHF/I..J"
    assert LAYOUTS["守口如瓶1"] == LAYOUTS["shou-kou-ru-ping-1"]


def test_layouts_hands_out_fresh_boards():
    board = LAYOUTS["横刀立马"]
    board.push("I:R")
    assert str(LAYOUTS["横刀立马"]) == "ABBC/ABBC/DEEF/DGHF/I..J"


def test_layout_takes_a_name_an_alias_or_notation():
    assert str(layout("横刀立马")) == "ABBC/ABBC/DEEF/DGHF/I..J"
    assert str(layout(" Heng-Dao-Li-Ma ")) == "ABBC/ABBC/DEEF/DGHF/I..J"
    assert str(layout("AABB/AACD/EFCG/EFHI/.JJ.")) == "AABB/AACD/EFCG/EFHI/.JJ."
    with pytest.raises(UnknownLayoutError, match="unknown layout name 'cao-cao'"):
        layout("cao-cao")
    with pytest.raises(ValueError):
        layout("")


def test_named_layouts_unpack_as_name_alias_board():
    name, alias, board = NAMED_LAYOUTS[0]
    assert (name, alias, str(board)) == ("横刀立马", "heng-dao-li-ma", "ABBC/ABBC/DEEF/DGHF/I..J")
    assert NAMED_LAYOUTS[0].board is not NAMED_LAYOUTS[0].board
    assert [e.name for e in NAMED_LAYOUTS][-1] == "井底之蛙"


def test_a_name_without_its_number_suggests_the_numbered_ones():
    with pytest.raises(UnknownLayoutError, match="did you mean 守口如瓶1 or 守口如瓶2"):
        layout("守口如瓶")
    with pytest.raises(UnknownLayoutError, match="did you mean 层层设防1 or 层层设防2"):
        layout("ceng-ceng-she-fang")
