"""The classic named layouts (横刀立马 and friends), by Chinese name and by pinyin alias, with English names.

The table ships in the package as ``layouts.tsv`` (name, alias, layout), a copy of the project's public reference
list with the aliases added. The English names (:data:`ENGLISH`) are for people reading the page in English; the
pinyin alias stays the name to type (CLI, deal ids).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from tilegames.klotski.board import Board, LayoutError


class UnknownLayoutError(LayoutError):
    """A layout name or alias that is not in the table."""


@dataclass(frozen=True)
class NamedLayout:
    """One classic layout."""

    name: str
    """Its Chinese name, e.g. 横刀立马."""
    alias: str
    """Its pinyin alias, e.g. heng-dao-li-ma."""
    layout: str
    """Its layout notation."""
    english: str = ""
    """Its name in English, a short translation of the Chinese one, e.g. "Blade Drawn, Horse Reined"."""

    @property
    def board(self) -> Board:
        """A fresh board of the layout (so pushing moves on it harms no one)."""
        return Board.parse(self.layout)

    def __iter__(self) -> Iterator[Any]:
        """Unpacks as ``name, alias, board``."""
        return iter((self.name, self.alias, self.board))


def _read_table() -> tuple[NamedLayout, ...]:
    text = resources.files("tilegames.klotski").joinpath("layouts.tsv").read_text(encoding="utf-8")
    rows = [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]
    header, *body = rows
    if header != ["name", "alias", "layout"]:
        raise LayoutError(f"layouts.tsv has header {header}, expected name, alias, layout")
    return tuple(
        NamedLayout(name, alias, layout, english=ENGLISH[alias]) for name, alias, layout in body
    )


#: Pinyin alias → English name: short translations of the Chinese names, as players call them.
ENGLISH: Mapping[str, str] = {
    "heng-dao-li-ma": "Blade Drawn, Horse Reined",
    "zhi-hui-ruo-ding": "Calm Command",
    "jiang-yong-cao-ying": "Generals Crowd Cao's Camp",
    "qi-tou-bing-jin": "Side by Side",
    "bing-fen-san-lu": "Three-Pronged Attack",
    "yu-sheng-xi-li": "Patter of Rain",
    "zuo-you-bu-bing": "Troops Left and Right",
    "tao-hua-yuan-zhong": "In the Peach Garden",
    "yi-lu-jin-jun": "One Road Forward",
    "yi-lu-shun-feng": "Fair Wind All the Way",
    "wei-er-bu-jian": "Surround, Don't Strike",
    "jie-zu-xian-deng": "The Swift Go First",
    "cha-chi-nan-fei": "Not Even with Wings",
    "shou-kou-ru-ping-1": "Tight-Lipped I",
    "shou-kou-ru-ping-2": "Tight-Lipped II",
    "shuang-jiang-dang-lu": "Two Generals Bar the Way",
    "heng-ma-dang-guan": "A Horse Across the Pass",
    "ceng-ceng-she-fang-1": "Defence in Depth I",
    "ceng-ceng-she-fang-2": "Defence in Depth II",
    "bing-dang-jiang-zu": "Soldiers Bar, Generals Block",
    "du-se-yao-dao": "The Pass Is Blocked",
    "weng-zhong-zhi-bie": "Turtle in a Jar",
    "ceng-luan-die-zhang": "Peak upon Peak",
    "shui-xie-bu-tong": "Watertight",
    "si-lu-jin-bing": "Four-Way Advance",
    "ru-di-wu-men": "No Way Out Below",
    "yong-chuang-wu-guan": "Through Five Passes",
    "si-mian-chu-ge": "Besieged on All Sides",
    "qian-hu-hou-yong": "Escorts Front and Back",
    "bing-lin-cao-ying": "Troops at Cao's Camp",
    "wu-jiang-bi-gong": "Five Generals Close In",
    "qian-dang-hou-zu": "Blocked Front and Back",
    "jin-zai-zhi-chi": "So Near",
    "zou-tou-wu-lu": "Dead End",
    "xiao-yan-chu-chao": "Swallow Leaves the Nest",
    "bi-yi-heng-kong": "Wing to Wing",
    "jia-dao-cang-bing": "Ambush in the Lane",
    "tun-bing-dong-lu": "Camp on the East Road",
    "si-jiang-lian-guan": "Four Generals Hold the Passes",
    "feng-hui-lu-zhuan": "Winding Mountain Road",
    "yun-zhe-wu-zhang": "Cloud and Mist",
    "san-jun-lian-fang": "Three Armies Stand Guard",
    "jing-di-zhi-wa": "Frog in a Well",
}


NAMED_LAYOUTS: tuple[NamedLayout, ...] = _read_table()
"""Every named layout, in the order of the data file (for menus)."""


class _Layouts(Mapping[str, Board]):
    """Name or pinyin alias → Board; every lookup returns a fresh board, so pushing on it harms no one."""

    def __init__(self, entries: tuple[NamedLayout, ...]) -> None:
        self._layouts = {
            key: entry.layout for entry in entries for key in (entry.name, entry.alias)
        }

    def __getitem__(self, key: str) -> Board:
        return Board.parse(self._layouts[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._layouts)

    def __len__(self) -> int:
        return len(self._layouts)

    def __repr__(self) -> str:
        return f"<LAYOUTS: {len(self._layouts) // 2} layouts by name and alias>"


LAYOUTS: Mapping[str, Board] = _Layouts(NAMED_LAYOUTS)
"""Name or pinyin alias → a fresh Board of that layout."""


def layout(text: str) -> Board:
    """A fresh board from a layout name, a pinyin alias (any case) or layout notation."""
    key = text.strip()
    for entry in NAMED_LAYOUTS:
        if key in (entry.name, entry.alias) or key.lower() == entry.alias:
            return entry.board
    if "/" in key or "\n" in key:
        return Board.parse(key)
    close = [e.name for e in NAMED_LAYOUTS if key in e.name or key.lower() in e.alias]
    if len(key) >= 2 and 1 <= len(close) <= 3:  # 守口如瓶 → 守口如瓶1 or 守口如瓶2
        raise UnknownLayoutError(f"unknown layout name {key!r}: did you mean {' or '.join(close)}?")
    raise UnknownLayoutError(
        f"unknown layout name {key!r}: give a name such as 横刀立马 or heng-dao-li-ma "
        "(`tilegames klotski list` shows them all) or a layout such as ABBC/ABBC/DEEF/DGHF/I..J"
    )


@dataclass(frozen=True)
class PackLevel:
    """One level of the generated pack: a layout with its proven optimal length (classic move count)."""

    name: str
    """"Level 37"."""
    layout: str
    """Its layout notation."""
    optimal: int
    """Its optimal solution length in moves, from the whole-space analysis (:func:`tilegames.klotski.universe`)."""


def pack() -> tuple[PackLevel, ...]:
    """The generated level pack (``pack.tsv``, made by ``scripts/klotski_pack.py``), easiest first."""
    text = resources.files("tilegames.klotski").joinpath("pack.tsv").read_text(encoding="utf-8")
    header, *body = [line.split("\t") for line in text.splitlines() if line]
    if header != ["name", "layout", "optimal"]:
        raise LayoutError(f"pack.tsv has header {header}, expected name, layout, optimal")
    return tuple(PackLevel(name, layout, int(optimal)) for name, layout, optimal in body)


def named_optimal() -> dict[str, int | None]:
    """Each named layout's optimal length in moves by alias (``named_optimal.tsv``, made by
    ``scripts/klotski_named_optimal.py``; None: no solution): the level screen shows them without solving at server start."""
    text = resources.files("tilegames.klotski").joinpath("named_optimal.tsv").read_text("utf-8")
    header, *body = [line.split("\t") for line in text.splitlines() if line]
    if header != ["alias", "optimal"]:
        raise LayoutError(f"named_optimal.tsv has header {header}, expected alias, optimal")
    return {alias: None if optimal == "-" else int(optimal) for alias, optimal in body}
