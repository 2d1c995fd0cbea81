// 连连看: click two equal tiles that a line with at most two turns can join; the path shows, the pair goes.

import { el, svg, toast } from "./ui.js";

export const title = "连连看 · Lianliankan";
export const keys = "Click two equal tiles · arrows move the cursor, Enter picks · U undo · H hint · S solve/pause · N new";
export const playbackDelay = 260;
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

export function settings(catalog) {
  const size = el("select", { name: "size", "aria-label": "size" },
    catalog.link.sizes.map((s) => el("option", { value: s, text: s.replace("x", "×") })));
  size.value = "14x6";
  const kinds = el("select", { name: "kinds", "aria-label": "kinds" });
  const gravity = el("input", { type: "checkbox", name: "gravity" });
  const refresh = () => {
    const [w, h] = size.value.split("x").map(Number);
    const cells = w * h;
    const [lo, hi] = catalog.link.kinds;
    const before = kinds.value;
    kinds.replaceChildren();
    for (let k = lo; k <= hi; k++) {
      if (cells % k === 0 && (cells / k) % 2 === 0) kinds.append(el("option", { value: String(k), text: `${k} kinds × ${cells / k}` }));
    }
    const options = [...kinds.options].map((o) => Number(o.value));
    const want = options.includes(Number(before)) ? Number(before) : options.filter((k) => cells / k >= 4).pop() ?? options[0];
    kinds.value = String(want);
  };
  size.addEventListener("change", refresh);
  refresh();
  return {
    node: el("span", { class: "fields" }, el("label", {}, "Size ", size), el("label", {}, "Tiles ", kinds),
      el("label", { class: "check" }, gravity, " Gravity")),
    params() {
      const [width, height] = size.value.split("x").map(Number);
      return { width, height, kinds: Number(kinds.value), gravity: gravity.checked };
    },
    restore(saved) {
      const value = `${saved.width}x${saved.height}`;
      if (![...size.options].some((o) => o.value === value)) size.append(el("option", { value, text: value.replace("x", "×") }));
      size.value = value;
      refresh();
      if ([...kinds.options].some((o) => o.value === String(saved.kinds))) kinds.value = String(saved.kinds);
      gravity.checked = Boolean(saved.gravity);
    },
  };
}

export function extra(state) {
  return `score ${state.view.score} · ${state.view.remaining} tiles left`;
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
  screen.svg = svg("svg", { viewBox: `0 0 ${(dw + 2) * CW} ${(dh + 2) * CH}`, class: screen.turned ? "link-svg turned" : "link-svg", role: "grid", "aria-label": "Lianliankan board" },
    svg("rect", { x: CW / 2, y: CH / 2, width: (dw + 1) * CW, height: (dh + 1) * CH, rx: 16, class: "felt" }));
  screen.layer = svg("g", { class: "paths" });
  const tiles = svg("g", { class: "tiles" });
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const g = svg("g", { class: "lt", "data-r": r, "data-c": c, tabindex: r === 0 && c === 0 ? 0 : -1, role: "gridcell",
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
      g.setAttribute("aria-label", "empty");
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
      g.setAttribute("aria-label", `tile ${text.textContent}`);
    }
    g.classList.remove("picked", "hint", "wrong");
  }));
  screen.dealt = state.id;
  screen.picked = null;
  if (state.last?.path) drawPath(screen, state.last.path, "lpath");
  if (state.last?.reshuffled) {
    toast("No move left: the tiles were reshuffled.", "notice", 3500);
    screen.say("No move left: the tiles were reshuffled.", "notice");
  }
  screen.svg.classList.toggle("solved", state.status === "won");
}

function drawPath(screen, points, cls, ms = 650) {
  const line = svg("polyline", { points: points.map(([r, c]) => `${cx(screen, r, c)},${cy(screen, r, c)}`).join(" "), class: cls, fill: "none", "data-path": "" });
  screen.layer.append(line);
  setTimeout(() => line.remove(), ms);
}

async function pick(screen, r, c) {
  const g = screen.cells.get(`${r},${c}`);
  if (!g || !g.dataset.kind || screen.busy || !screen.state || screen.state.status !== "playing") return;
  screen.cursor = [r, c];
  if (!screen.picked) {
    screen.picked = [r, c];
    g.classList.add("picked");
    return;
  }
  const [pr, pc] = screen.picked;
  if (pr === r && pc === c) {
    screen.picked = null;
    g.classList.remove("picked");
    return;
  }
  g.classList.add("picked");
  await screen.move([[pr, pc], [r, c]]);
}

export function illegal(move, error, screen) {
  for (const [r, c] of move) screen.cells.get(`${r},${c}`)?.classList.add("wrong");
  screen.say(error.message, "error");
  setTimeout(() => {
    for (const [r, c] of move) screen.cells.get(`${r},${c}`)?.classList.remove("wrong", "picked");
  }, 600);
  screen.picked = null;
}

export function showHint(hint, screen) {
  for (const [r, c] of hint.cells) screen.cells.get(`${r},${c}`)?.classList.add("hint");
  if (hint.path) drawPath(screen, hint.path, "lpath hinted", 1500);
  screen.say("Hint: the two glowing tiles.");
}

export function onKey(event, screen) {
  const seen = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[event.key];
  if (!seen || !screen.state) return;
  const d = screen.turned ? [seen[1], seen[0]] : seen; // arrows follow the board as drawn
  event.preventDefault();
  const { width: w, height: h } = screen.state.view;
  const [r, c] = screen.cursor ?? [0, 0];
  const next = [Math.min(h - 1, Math.max(0, r + d[0])), Math.min(w - 1, Math.max(0, c + d[1]))];
  screen.cursor = next;
  for (const g of screen.cells.values()) g.setAttribute("tabindex", "-1");
  const g = screen.cells.get(`${next[0]},${next[1]}`);
  g.setAttribute("tabindex", "0");
  g.focus();
}
