// How to play, per game and language: the rules, the controls, and what the numbers on screen mean.

import { lang } from "./i18n.js";

const HELP = {
  en: {
    slide: [
      "Slide the numbered tiles into order, 1 in the top left, the blank last.",
      "Click, tap or swipe any tile in the blank's row or column: the whole run slides. The arrow keys move the tile beside the blank in the arrow's direction; Tab walks the tiles in board order, Enter moves one.",
      "Every tile that moves one cell counts as one move. The optimum is the fewest moves that solve the deal, proved by the solver; a deal \"n moves from solved\" needs exactly n.",
      "U undo, R redo, H hint, S let the computer solve it (no record), P pause, N new game.",
    ],
    klotski: [
      "Lead Cao Cao, the big 2×2 piece, out through the gate at the bottom centre. Pieces slide; none can pass another.",
      "Drag a piece (it stops at whatever is in the way), or click it or Tab to it and press the arrow keys.",
      "Two ways to count: moves, where one piece sliding any distance along any path counts as one (the classic count, the one the optimum uses), and steps, where each cell a piece moves counts as one.",
      "The optimum is the fewest moves that free Cao Cao, proved by searching every reachable position.",
      "U undo, R redo, H hint, S let the computer solve it (no record), P pause, N new game.",
    ],
    link: [
      "Remove the tiles in pairs of equal tiles until the board is empty.",
      "Two tiles go together when a line with at most two turns joins them without crossing another tile; the line may run round the outside of the board.",
      "Click one tile, then its partner. A second click on a different tile makes it the new pick. With the keyboard, the arrows move the dashed cursor and Enter picks.",
      "The score rewards speed. If no pair is left, the tiles are reshuffled. With gravity, tiles fall down into the gaps.",
      "U undo, R redo, H hint, S let the computer solve it (no record), P pause, N new game.",
    ],
  },
  zh: {
    slide: [
      "把数字方块按顺序排好：1 在左上角，空格在最后。",
      "点击、轻触或滑动空格所在行或列的任一数字：整排一起移动。方向键把空格旁的数字朝箭头方向移动；Tab 按棋盘顺序选中数字，回车移动。",
      "每个数字移动一格算一步。“最优”是解开这一局的最少步数，由求解器证明；“离还原 n 步”的开局恰好需要 n 步。",
      "U 悔一步，R 重做，H 提示，S 让电脑解（不计纪录），P 暂停，N 新游戏。",
    ],
    klotski: [
      "让曹操（2×2 的大块）从底部中间的出口逃出。棋子只能滑动，不能越过别的棋子。",
      "拖动棋子（遇到阻挡会停下），或点击、用 Tab 选中后按方向键。",
      "两种计数：“步数”里一个棋子沿任意路线滑动多远都算一步（传统算法，最优步数用它）；“格数”里棋子每移动一格算一步。",
      "“最优”是让曹操逃出的最少步数，通过搜索所有可到达的局面证明。",
      "U 悔一步，R 重做，H 提示，S 让电脑解（不计纪录），P 暂停，N 新游戏。",
    ],
    link: [
      "把相同的牌两两消去，直到棋盘清空。",
      "两块相同的牌能用不超过两个拐弯、不穿过其他牌的线连起来，就可以消去；线可以绕到棋盘外面。",
      "先点一块，再点它的另一半。点了不同的牌，就改选那一块。用键盘时，方向键移动虚线光标，回车选中。",
      "越快得分越高。没有可消的牌时会自动洗牌。开启重力时，牌会往下落填补空位。",
      "U 悔一步，R 重做，H 提示，S 让电脑解（不计纪录），P 暂停，N 新游戏。",
    ],
  },
};

/** The paragraphs of the how-to-play for `game` in the current language. */
export const help = (game) => HELP[lang()][game] ?? [];
