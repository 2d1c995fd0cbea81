"""Every named Klotski layout has a short English name (the page shows it in English); the pinyin alias stays
what the CLI and deal ids use; the catalog carries both."""

from __future__ import annotations

from tilegames import klotski
from tilegames.klotski.layouts import ENGLISH, NAMED_LAYOUTS
from tilegames.web import games
from tilegames.web.limits import ServerLimits


def test_every_named_layout_has_its_own_short_english_name():
    assert {n.alias for n in NAMED_LAYOUTS} == set(ENGLISH)
    names = [n.english for n in NAMED_LAYOUTS]
    assert len(set(names)) == len(names) == 43
    for layout in NAMED_LAYOUTS:
        assert layout.english and layout.english.isascii() and len(layout.english) <= 32
        assert layout.english.lower() != layout.alias.replace("-", " ")  # a translation, not pinyin
        assert layout.english[0].isupper()
    by_alias = {n.alias: n for n in NAMED_LAYOUTS}
    assert by_alias["heng-dao-li-ma"].english == "Blade Drawn, Horse Reined"
    assert by_alias["heng-dao-li-ma"].name == "横刀立马"


def test_the_alias_still_names_the_layout_and_unpacking_is_unchanged():
    name, alias, board = NAMED_LAYOUTS[0]
    assert (name, alias) == ("横刀立马", "heng-dao-li-ma")
    assert klotski.layout("heng-dao-li-ma") == board == klotski.LAYOUTS["横刀立马"]


def test_the_catalog_names_every_level_in_english_too():
    catalog = games.adapter("klotski").catalog(ServerLimits())
    english = {n.name: n.english for n in NAMED_LAYOUTS}
    assert {entry["name"]: entry["english"] for entry in catalog["layouts"]} == english
    levels = catalog["levels"]
    for level in levels:
        if level["kind"] == "named":
            assert level["english"] == english[level["name"]]
        else:
            assert level["english"] == level["name"] and level["name"].startswith("Level ")
    assert sum(level["kind"] == "named" for level in levels) == 43
