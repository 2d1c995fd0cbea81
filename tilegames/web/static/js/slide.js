// 数字华容道: click or tap a tile in line with the blank (a whole row or column slides), or use the arrow keys.

import { el, svg, toast } from "./ui.js";

export const title = "数字华容道 · Sliding puzzle";
export const keys = "Click a tile in the blank's row or column · arrows move a tile into the blank · U undo · H hint · S solve/pause · N new";
const CELL = 100;
const GAP = 6;
const DELTA = { U: [1, 0], D: [-1, 0], L: [0, 1], R: [0, -1] }; // tile position relative to the blank

export function art() {
  return svg("svg", { viewBox: "0 0 90 90", width: 90, height: 90 },
    [1, 2, 3, 4, 5, 6, 7, 8].map((n, i) =>
      svg("g", { transform: `translate(${(i % 3) * 30},${Math.floor(i / 3) * 30})` },
        svg("rect", { x: 2, y: 2, width: 26, height: 26, rx: 5, class: "tile-face" }),
        svg("text", { x: 15, y: 21, "text-anchor": "middle", class: "tile-num", "font-size": 16 }, String(n)))));
}

export function settings(catalog) {
  const size = el("select", { name: "size", "aria-label": "size" },
    catalog.slide.sizes.map((s) => el("option", { value: s, text: s.replace("x", "×") })));
  size.value = "4x4";
  const level = el("select", { name: "level", "aria-label": "difficulty" });
  const refresh = () => {
    const top = catalog.slide.distance[size.value];
    level.replaceChildren(el("option", { value: "", text: "random deal" }));
    if (top !== undefined) {
      for (const d of [5, 10, 15, 20, 25, 31, 35, 40, 45, 50].filter((d) => d <= top)) {
        level.append(el("option", { value: String(d), text: `${d} moves from solved` }));
      }
    }
    level.disabled = top === undefined;
  };
  size.addEventListener("change", refresh);
  refresh();
  return {
    node: el("span", { class: "fields" }, el("label", {}, "Size ", size), el("label", {}, "Deal ", level)),
    params() {
      const [width, height] = size.value.split("x").map(Number);
      const params = { width, height };
      if (level.value !== "") params.distance = Number(level.value);
      return params;
    },
    restore(saved) {
      const value = `${saved.width}x${saved.height}`;
      if (![...size.options].some((o) => o.value === value)) size.append(el("option", { value, text: value.replace("x", "×") }));
      size.value = value;
      refresh();
      if (saved.distance !== undefined && [...level.options].some((o) => o.value === String(saved.distance))) level.value = String(saved.distance);
    },
  };
}

export function extra(state) {
  const parts = [];
  if (state.optimal !== null && state.optimal !== undefined) parts.push(`optimal ${state.optimal}`);
  if (state.best) parts.push(`best ${state.best.fewest_moves}`);
  return parts.join(" · ");
}

function ensureSvg(screen, w, h) {
  const key = `${w}x${h}`;
  if (screen.svgKey !== key) {
    screen.svgKey = key;
    screen.tiles = new Map();
    screen.svg = svg("svg", {
      viewBox: `${-GAP} ${-GAP} ${w * CELL + GAP} ${h * CELL + GAP}`,
      class: "slide-svg",
      role: "grid",
      "aria-label": "sliding puzzle board",
    });
    screen.svg.append(svg("rect", { x: -GAP, y: -GAP, width: w * CELL + GAP, height: h * CELL + GAP, rx: 14, class: "tray" }));
    screen.board.replaceChildren(screen.svg);
  }
  return screen.svg;
}

export function render(state, screen) {
  const { width: w, height: h, tiles } = state.view;
  const root = ensureSvg(screen, w, h);
  const blank = tiles.indexOf(0);
  const [br, bc] = [Math.floor(blank / w), blank % w];
  const font = Math.max(26, 52 - 3 * Math.max(w, h));
  tiles.forEach((n, i) => {
    if (n === 0) return;
    let g = screen.tiles.get(n);
    if (!g) {
      g = svg("g", { class: "tile", "data-tile": n, tabindex: 0, role: "button", "aria-label": `tile ${n}` },
        svg("rect", { x: GAP / 2, y: GAP / 2, width: CELL - GAP, height: CELL - GAP, rx: 12, class: "tile-face" }),
        svg("text", { x: CELL / 2, y: CELL / 2, dy: "0.35em", "text-anchor": "middle", class: "tile-num", "font-size": font }, String(n)));
      g.addEventListener("click", () => clickTile(screen, n));
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); clickTile(screen, n); } });
      screen.tiles.set(n, g);
      root.append(g);
    }
    const [r, c] = [Math.floor(i / w), i % w];
    g.dataset.row = r;
    g.dataset.col = c;
    g.style.transform = `translate(${c * CELL}px, ${r * CELL}px)`;
    g.classList.toggle("home", n === i + 1);
    g.classList.toggle("movable", r === br || c === bc);
    g.classList.remove("hint");
  });
  screen.svg.classList.toggle("solved", state.status === "won");
}

// The letters that slide every tile between the clicked one and the blank (each letter is one tile's move).
function lettersFor(state, n) {
  const { width: w, tiles } = state.view;
  const i = tiles.indexOf(n);
  const blank = tiles.indexOf(0);
  const [r, c, br, bc] = [Math.floor(i / w), i % w, Math.floor(blank / w), blank % w];
  if (r === br && c !== bc) return (c < bc ? "R" : "L").repeat(Math.abs(c - bc));
  if (c === bc && r !== br) return (r < br ? "D" : "U").repeat(Math.abs(r - br));
  return "";
}

function clickTile(screen, n) {
  const letters = lettersFor(screen.state, n);
  if (!letters) {
    const g = screen.tiles.get(n);
    g.classList.add("nope");
    setTimeout(() => g.classList.remove("nope"), 300);
    return;
  }
  screen.move(letters);
}

export function illegal(move, error) {
  toast(error.message, "error");
}

export function showHint(hint, screen) {
  const [[r, c]] = hint.cells;
  const n = screen.state.view.tiles[r * screen.state.view.width + c];
  const g = screen.tiles.get(n);
  g?.classList.add("hint");
  screen.say(`Hint: move tile ${n}.`);
}

export function onKey(event, screen) {
  const letter = { ArrowUp: "U", ArrowDown: "D", ArrowLeft: "L", ArrowRight: "R" }[event.key];
  if (!letter || !screen.state) return;
  event.preventDefault();
  const { width: w, height: h, tiles } = screen.state.view;
  const blank = tiles.indexOf(0);
  const [dr, dc] = DELTA[letter];
  const [r, c] = [Math.floor(blank / w) + dr, (blank % w) + dc];
  if (r < 0 || r >= h || c < 0 || c >= w) return;
  screen.move(letter);
}
