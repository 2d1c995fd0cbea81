// 连连看: click two equal tiles that a line with at most two turns can join; the path shows, the pair goes.

import { t } from "./i18n.js";
import { sizeScreen } from "./progress.js";
import { el, svg, toast } from "./ui.js";

export const playbackDelay = 260;
export const winTitle = "win.cleared";
const MIN_TARGET = 34; // px: the smallest a tile may be drawn; a bigger board scrolls inside its frame
const CW = 56; // cell width
const CH = 70; // cell height
// Readable tile faces: numbers in three suits, winds and dragons, flowers and seasons, zodiac, elements.
const GLYPHS = [
  ..."一二三四五六七八九", ..."壹贰叁肆伍陆柒捌玖", ..."①②③④⑤⑥⑦⑧⑨",
  ..."东南西北中发白", ..."梅兰竹菊春夏秋冬", ..."鼠牛虎兔龙蛇马羊猴鸡狗猪",
  ..."金木水火土日月星云山", ..."福禄寿喜财琴棋书画天地人和",
];
const GROUP_SIZES = [9, 9, 9, 7, 8, 12, 10, 13];

function group(index) {
  let i = index % GLYPHS.length;
  for (let g = 0; g < GROUP_SIZES.length; g++) {
    if (i < GROUP_SIZES[g]) return g;
    i -= GROUP_SIZES[g];
  }
  return 0;
}

export function art() {
  return svg("svg", { viewBox: "-4 -8 104 92", width: 104, height: 92 },
    [["东", 0, 0], ["梅", 32, 0], ["东", 64, 42]].map(([t, x, y]) =>
      svg("g", { transform: `translate(${x},${y})` },
        svg("rect", { x: 1, y: 1, width: 30, height: 38, rx: 4, class: "lt-face" }),
        svg("text", { x: 16, y: 27, "text-anchor": "middle", "font-size": 20, class: `lt-glyph g${t === "东" ? 3 : 4}` }, t))),
    svg("polyline", { points: "16,1 16,-5 97,-5 97,62 95,62", class: "lpath", fill: "none" }));
}

/** The number of kinds a size gets unless the player picks: the most kinds that still give 4 copies of each. */
export function defaultKinds(cells, [lo, hi]) {
  const fitting = [];
  for (let k = lo; k <= hi; k++) if (cells % k === 0 && (cells / k) % 2 === 0) fitting.push(k);
  return fitting.filter((k) => cells / k >= 4).pop() ?? fitting[0];
}

export function settings(catalog, screen) {
  const size = el("select", { name: "size", "data-deal": "" },
    catalog.link.sizes.map((s) => el("option", { value: s, text: s.replace("x", "×") })));
  size.value = "14x6";
  const kinds = el("select", { name: "kinds", "data-deal": "" });
  const gravity = el("input", { type: "checkbox", name: "gravity", "data-deal": "" });
  // The kinds that fill this size in whole pairs; `keep` is kept if it fits, else a size's default is chosen.
  const refresh = (keep = null) => {
    const [w, h] = size.value.split("x").map(Number);
    const cells = w * h;
    const [lo, hi] = catalog.link.kinds;
    kinds.replaceChildren();
    for (let k = lo; k <= hi; k++) {
      if (cells % k === 0 && (cells / k) % 2 === 0) kinds.append(el("option", { value: String(k), text: t("set.kinds", { k, n: cells / k }) }));
    }
    const options = [...kinds.options].map((o) => Number(o.value));
    const want = options.includes(Number(keep)) ? Number(keep) : defaultKinds(cells, catalog.link.kinds);
    kinds.value = String(want);
  };
  // The size menu: every size × gravity with ✓ and the best score; a choice deals it (asking first mid-game).
  const sizesButton = el("button", { type: "button", "data-action": "sizes", onclick: async () => {
    const choice = await sizeScreen(catalog.link.sizes, sizesButton);
    if (!choice) return;
    const [width, height] = choice.size.split("x").map(Number);
    const params = { width, height, kinds: defaultKinds(width * height, catalog.link.kinds), gravity: choice.gravity };
    screen.newGame({ params, question: "ask.change" });
  } }, t("btn.sizes"));
  size.addEventListener("change", () => refresh()); // a new size gets its own default kinds, not the last size's
  refresh();
  return {
    node: el("span", { class: "fields" }, sizesButton, el("label", {}, `${t("set.size")} `, size), el("label", {}, `${t("set.tiles")} `, kinds),
      el("label", { class: "check" }, gravity, ` ${t("set.gravity")}`)),
    params() {
      const [width, height] = size.value.split("x").map(Number);
      return { width, height, kinds: Number(kinds.value), gravity: gravity.checked };
    },
    restore(saved) {
      const value = `${saved.width}x${saved.height}`;
      if (![...size.options].some((o) => o.value === value)) size.append(el("option", { value, text: value.replace("x", "×") }));
      size.value = value;
      refresh(saved.kinds);
      gravity.checked = Boolean(saved.gravity);
    },
  };
}

export function extra(state) {
  return t("stat.score", { s: state.view.score, n: state.view.remaining });
}

// On a narrow portrait screen a wide board is drawn turned (rows become columns), so tiles stay tappable.
// Only the drawing turns: cells keep their (row, column) in data attributes and in every move sent.
const turned = (screen) => screen.turned;
const spot = (screen, r, c) => (turned(screen) ? [c, r] : [r, c]); // drawn (row, column) of a cell
const cx = (screen, r, c) => (spot(screen, r, c)[1] + 1) * CW + CW / 2;
const cy = (screen, r, c) => (spot(screen, r, c)[0] + 1) * CH + CH / 2;

function ensureSvg(screen, state) {
  const { width: w, height: h } = state.view;
  if (screen.svgKey === state.id) return;
  screen.svgKey = state.id;
  screen.cells = new Map();
  screen.picked = null;
  screen.cursor = [0, 0];
  screen.turned = w > h && window.innerWidth < 700 && window.innerHeight > window.innerWidth;
  const [dw, dh] = screen.turned ? [h, w] : [w, h];
  screen.svg = svg("svg", { viewBox: `0 0 ${(dw + 2) * CW} ${(dh + 2) * CH}`, class: screen.turned ? "link-svg turned" : "link-svg", role: "group", "aria-label": t("link.board") },
    svg("rect", { x: CW / 2, y: CH / 2, width: (dw + 1) * CW, height: (dh + 1) * CH, rx: 16, class: "felt" }));
  screen.layer = svg("g", { class: "paths" });
  const tiles = svg("g", { class: "tiles" });
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const g = svg("g", { class: r === 0 && c === 0 ? "lt cursor" : "lt", "data-r": r, "data-c": c, tabindex: r === 0 && c === 0 ? 0 : -1, role: "button",
        transform: `translate(${(spot(screen, r, c)[1] + 1) * CW},${(spot(screen, r, c)[0] + 1) * CH})` },
        svg("rect", { x: 2, y: 2, width: CW - 4, height: CH - 4, rx: 7, class: "lt-face" }),
        svg("text", { x: CW / 2, y: CH / 2, dy: "0.36em", "text-anchor": "middle", class: "lt-glyph", "font-size": 34 }));
      g.addEventListener("click", () => pick(screen, r, c));
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(screen, r, c); } });
      screen.cells.set(`${r},${c}`, g);
      tiles.append(g);
    }
  }
  screen.svg.append(tiles, screen.layer);
  // Never smaller than a finger: past that the board scrolls inside its frame (CSSOM, allowed by the CSP).
  // Otherwise as wide as fits the screen's height, so a board that can be seen whole needs no scrolling.
  const aspect = ((dw + 2) * CW) / ((dh + 2) * CH);
  screen.svg.style.minWidth = `${(dw + 2) * MIN_TARGET}px`;
  // A board too tall to fit anyway takes the whole width (bigger tiles) and scrolls.
  if ((window.innerHeight - 288) * aspect >= (dw + 2) * MIN_TARGET) {
    screen.svg.style.maxWidth = `min(100%, calc((100dvh - 18rem) * ${aspect.toFixed(4)}))`;
  }
  screen.board.replaceChildren(screen.svg);
}

export function render(state, screen) {
  ensureSvg(screen, state);
  const kindsIndex = new Map(state.view.kinds.map((k, i) => [k, i]));
  state.view.grid.forEach((line, r) => [...line].forEach((ch, c) => {
    const g = screen.cells.get(`${r},${c}`);
    const text = g.querySelector("text");
    const was = g.dataset.kind;
    if (ch === ".") {
      if (was) { g.classList.add("gone"); }
      delete g.dataset.kind;
      g.classList.add("empty");
      g.setAttribute("aria-label", t("link.empty", { r: r + 1, c: c + 1 }));
      text.textContent = "";
    } else {
      const index = kindsIndex.get(ch) ?? 0;
      // With gravity a tile that changed under a cell fell into it: show the drop.
      if (state.view.gravity && screen.dealt === state.id && was !== ch) {
        g.classList.remove("fell");
        void g.getBBox(); // restart the animation
        g.classList.add("fell");
      }
      g.dataset.kind = ch;
      g.classList.remove("empty", "gone");
      text.textContent = GLYPHS[index % GLYPHS.length] ?? ch;
      text.setAttribute("class", `lt-glyph g${group(index)}`);
      g.setAttribute("aria-label", t("link.tile", { glyph: text.textContent, r: r + 1, c: c + 1 }));
    }
    g.classList.remove("picked", "hint", "wrong");
  }));
  screen.dealt = state.id;
  // A tile picked while the last pair was on its way stays picked if it is still there.
  const kept = screen.picked && screen.cells.get(`${screen.picked[0]},${screen.picked[1]}`);
  if (kept?.dataset.kind) kept.classList.add("picked");
  else screen.picked = null;
  if (state.last?.path) drawPath(screen, state.last.path, "lpath");
  if (state.last?.reshuffled) {
    toast(t("link.reshuffled"), "notice", 3500);
    screen.say(t("link.reshuffled"), "notice");
  }
  screen.svg.classList.toggle("solved", state.status === "won");
}

function drawPath(screen, points, cls, ms = 650) {
  const line = svg("polyline", { points: points.map(([r, c]) => `${cx(screen, r, c)},${cy(screen, r, c)}`).join(" "), class: cls, fill: "none", "data-path": "" });
  screen.layer.append(line);
  setTimeout(() => line.remove(), ms);
}

// The first tile is picked; a second equal one sends the pair; a different one becomes the new pick (no server
// round trip); the picked one again drops the pick.
function pick(screen, r, c) {
  const g = screen.cells.get(`${r},${c}`);
  if (!g || !g.dataset.kind || !screen.state || screen.state.status !== "playing" || screen.paused) return;
  moveCursor(screen, r, c, false);
  const before = screen.picked && screen.cells.get(`${screen.picked[0]},${screen.picked[1]}`);
  if (!screen.picked || !before?.dataset.kind) {
    setPicked(screen, [r, c]);
    return;
  }
  const [pr, pc] = screen.picked;
  if (pr === r && pc === c) {
    setPicked(screen, null);
    return;
  }
  if (before.dataset.kind !== g.dataset.kind) {
    setPicked(screen, [r, c]);
    return;
  }
  g.classList.add("picked");
  screen.picked = null;
  screen.move([[pr, pc], [r, c]]);
}

function setPicked(screen, cell) {
  for (const g of screen.svg.querySelectorAll(".lt.picked")) g.classList.remove("picked");
  screen.picked = cell;
  if (cell) screen.cells.get(`${cell[0]},${cell[1]}`)?.classList.add("picked");
}

// The keyboard cursor: one tile in the tab order (roving tabindex), drawn with a dashed frame.
function moveCursor(screen, r, c, focus = true) {
  screen.cursor = [r, c];
  for (const g of screen.cells.values()) {
    g.setAttribute("tabindex", "-1");
    g.classList.remove("cursor");
  }
  const g = screen.cells.get(`${r},${c}`);
  g.setAttribute("tabindex", "0");
  g.classList.add("cursor");
  if (focus) g.focus();
}

export function illegal(move, error, screen) {
  for (const [r, c] of move) screen.cells.get(`${r},${c}`)?.classList.add("wrong");
  screen.say(t("link.noPath"), "error");
  setTimeout(() => {
    for (const [r, c] of move) screen.cells.get(`${r},${c}`)?.classList.remove("wrong", "picked");
  }, 600);
  screen.picked = null;
}

export function showHint(hint, screen) {
  for (const [r, c] of hint.cells) screen.cells.get(`${r},${c}`)?.classList.add("hint");
  if (hint.path) drawPath(screen, hint.path, "lpath hinted", 1500);
  screen.say(t("link.hint"));
}

export function onKey(event, screen) {
  const seen = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[event.key];
  if (!seen || !screen.state) return;
  const d = screen.turned ? [seen[1], seen[0]] : seen; // arrows follow the board as drawn
  event.preventDefault();
  const { width: w, height: h } = screen.state.view;
  const [r, c] = screen.cursor ?? [0, 0];
  moveCursor(screen, Math.min(h - 1, Math.max(0, r + d[0])), Math.min(w - 1, Math.max(0, c + d[1])));
}
