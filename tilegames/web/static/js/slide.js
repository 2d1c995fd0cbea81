// 数字华容道: click or tap a tile in line with the blank (a whole row or column slides), or use the arrow keys.

import { t } from "./i18n.js";
import { el, orDash, svg } from "./ui.js";
import { marks } from "./progress.js";

/** The ladder's rungs (exact distances) a size offers, up to its largest. */
const RUNGS = [2, 5, 10, 15, 20, 25, 31, 35, 40, 45, 50];
const rungs = (top) => RUNGS.filter((d) => d <= top);

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
  const size = el("select", { name: "size", "data-deal": "" },
    catalog.slide.sizes.map((s) => el("option", { value: s, text: s.replace("x", "×") })));
  size.value = "4x4";
  const level = el("select", { name: "level", "data-deal": "" });
  const refresh = () => {
    const top = catalog.slide.distance[size.value];
    level.replaceChildren(el("option", { value: "", text: t("set.random") }));
    if (top !== undefined) {
      for (const d of rungs(top)) {
        level.append(el("option", { value: String(d), text: t("set.distance", { n: d }) }));
      }
    }
    level.disabled = top === undefined;
  };
  size.addEventListener("change", refresh);
  refresh();
  return {
    node: el("span", { class: "fields" }, el("label", {}, `${t("set.size")} `, size), el("label", {}, `${t("set.deal")} `, level)),
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

/** The ladder's ✓/★ on each rung of the size shown. */
export function decorate(progress, screen) {
  const size = screen.settings.node.querySelector("select[name=size]").value;
  for (const option of screen.settings.node.querySelectorAll("select[name=level] option")) {
    if (!option.value) continue;
    const mark = marks(progress[`${size} d${option.value}`]);
    option.textContent = t("set.distance", { n: option.value }) + (mark ? ` ${mark}` : "");
    option.dataset.marks = mark;
  }
}

/** The win card's "Next rung": the next distance of the ladder on this size. */
export function next(state, catalog) {
  const found = /^(\d+)x(\d+) d(\d+)$/.exec(state.variant);
  if (!found) return null;
  const [width, height, distance] = found.slice(1).map(Number);
  const rung = rungs(catalog.slide.distance[`${width}x${height}`] ?? 0).find((d) => d > distance);
  return rung === undefined ? null : { label: "btn.nextRung", params: { width, height, distance: rung } };
}

export function extra(state) {
  const parts = [];
  if (state.optimal !== null && state.optimal !== undefined) parts.push(t("stat.optimal", { n: state.optimal }));
  if (state.best) parts.push(t("stat.best", { n: orDash(state.best.fewest_moves) }));
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
      role: "group",
      "aria-label": t("slide.board"),
    });
    screen.svg.append(svg("rect", { x: -GAP, y: -GAP, width: w * CELL + GAP, height: h * CELL + GAP, rx: 14, class: "tray" }));
    screen.board.replaceChildren(screen.svg);
  }
  return screen.svg;
}

export function render(state, screen) {
  const { width: w, tiles } = state.view;
  const root = ensureSvg(screen, w, state.view.height);
  const blank = tiles.indexOf(0);
  const [br, bc] = [Math.floor(blank / w), blank % w];
  const font = Math.max(26, 52 - 3 * Math.max(w, state.view.height));
  const focused = document.activeElement;
  let previous = root.querySelector(".tray");
  tiles.forEach((n, i) => {
    if (n === 0) return;
    let g = screen.tiles.get(n);
    if (!g) {
      g = svg("g", { class: "tile", "data-tile": n, tabindex: 0, role: "button" },
        svg("rect", { x: GAP / 2, y: GAP / 2, width: CELL - GAP, height: CELL - GAP, rx: 12, class: "tile-face" }),
        svg("text", { x: CELL / 2, y: CELL / 2, dy: "0.35em", "text-anchor": "middle", class: "tile-num", "font-size": font, "aria-hidden": "true" }, String(n)));
      g.addEventListener("click", () => {
        if (screen.swiped) { screen.swiped = false; return; }
        clickTile(screen, n);
      });
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); clickTile(screen, n); } });
      swipe(g, n, screen);
      screen.tiles.set(n, g);
      root.append(g);
    }
    const [r, c] = [Math.floor(i / w), i % w];
    const from = g.style.transform;
    const to = `translate(${c * CELL}px, ${r * CELL}px)`;
    // Tab follows the board: the tiles stay in the document in reading order of their places.
    if (g.previousSibling !== previous) (root.moveBefore ? root.moveBefore(g, previous.nextSibling) : root.insertBefore(g, previous.nextSibling));
    previous = g;
    g.style.transform = to;
    if (from && from !== to && !matchMedia("(prefers-reduced-motion: reduce)").matches) {
      g.animate([{ transform: from }, { transform: to }], { duration: 130, easing: "ease-out" });
    }
    g.dataset.row = r;
    g.dataset.col = c;
    g.setAttribute("aria-label", t("slide.tile", { n, r: r + 1, c: c + 1 }));
    g.classList.toggle("home", n === i + 1);
    g.classList.toggle("movable", r === br || c === bc);
    g.classList.remove("hint");
  });
  if (focused?.isConnected && document.activeElement !== focused) focused.focus();
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

function nope(screen, n) {
  const g = screen.tiles.get(n);
  g.classList.add("nope");
  setTimeout(() => g.classList.remove("nope"), 300);
}

// A click sends the run of tiles between this one and the blank, worked out when the move's turn comes (moves
// made faster than the server answers wait in order).
function clickTile(screen, n) {
  if (!screen.waiting && !lettersFor(screen.state, n)) {
    nope(screen, n);
    return;
  }
  screen.move((state) => lettersFor(state, n) || null);
}

// Swiping a tile towards the blank moves it (and the run behind it), as a tap on it would.
function swipe(g, n, screen) {
  let start = null;
  g.addEventListener("pointerdown", (e) => {
    start = { x: e.clientX, y: e.clientY };
    g.setPointerCapture?.(e.pointerId);
  });
  g.addEventListener("pointerup", (e) => {
    if (!start) return;
    const dx = e.clientX - start.x, dy = e.clientY - start.y;
    start = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 12) return;
    screen.swiped = true;
    setTimeout(() => { screen.swiped = false; }, 400);
    const letters = lettersFor(screen.state, n);
    const way = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "R" : "L") : dy > 0 ? "D" : "U";
    if (letters && letters[0] === way) screen.move((state) => lettersFor(state, n) || null);
    else nope(screen, n);
  });
  g.addEventListener("pointercancel", () => { start = null; });
}

export function illegal(move, error, screen) {
  screen.say(t("err.illegal"), "error");
}

export function showHint(hint, screen) {
  const [[r, c]] = hint.cells;
  const n = screen.state.view.tiles[r * screen.state.view.width + c];
  const g = screen.tiles.get(n);
  g?.classList.add("hint");
  screen.say(t("slide.hint", { n, r: r + 1, c: c + 1 }));
}

export function onKey(event, screen) {
  const letter = { ArrowUp: "U", ArrowDown: "D", ArrowLeft: "L", ArrowRight: "R" }[event.key];
  if (!letter || !screen.state) return;
  event.preventDefault();
  screen.move((state) => {
    const { width: w, height: h, tiles } = state.view;
    const blank = tiles.indexOf(0);
    const [dr, dc] = DELTA[letter];
    const [r, c] = [Math.floor(blank / w) + dr, (blank % w) + dc];
    return r < 0 || r >= h || c < 0 || c >= w ? null : letter;
  });
}
