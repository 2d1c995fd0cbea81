// 华容道: drag a piece, or click it and use the arrow keys; consecutive moves of one piece count as one move.

import { api } from "./api.js";
import { el, svg, toast } from "./ui.js";

export const title = "华容道 · Klotski";
export const keys = "Drag a piece, or click it (or Tab to it) and press arrows · U undo · H hint · S solve/pause · N new";
export const playbackDelay = 420;
const CELL = 100;
const PAD = 14;
const GENERALS = ["关羽", "张飞", "赵云", "马超", "黄忠", "魏延", "许褚", "典韦"];
const STEP = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] };

export function art() {
  return svg("svg", { viewBox: "0 0 80 100", width: 72, height: 90 },
    svg("rect", { x: 20, y: 0, width: 40, height: 40, rx: 5, class: "kp boss" }),
    svg("rect", { x: 0, y: 0, width: 19, height: 40, rx: 4, class: "kp general" }),
    svg("rect", { x: 61, y: 0, width: 19, height: 40, rx: 4, class: "kp general" }),
    svg("rect", { x: 20, y: 41, width: 40, height: 19, rx: 4, class: "kp general" }),
    svg("rect", { x: 0, y: 81, width: 19, height: 19, rx: 4, class: "kp soldier" }),
    svg("rect", { x: 61, y: 81, width: 19, height: 19, rx: 4, class: "kp soldier" }));
}

export function settings(catalog, screen) {
  const layouts = catalog.klotski.layouts;
  const pick = el("select", { name: "layout", "aria-label": "layout" },
    layouts.map((l) => el("option", { value: l.name, text: `${l.name} · ${l.alias}` })),
    el("option", { value: "custom", text: "Custom layout…" }));
  const text = el("textarea", { name: "custom", rows: 5, cols: 8, spellcheck: "false", "aria-label": "custom layout",
    placeholder: "ABBC\nABBC\nDEEF\nDGHF\nI..J" });
  text.value = "ABBC\nABBC\nDEEF\nDGHF\nI..J";
  const preview = el("div", { class: "preview" });
  const verdict = el("p", { class: "verdict", "data-verdict": "", "aria-live": "polite" });
  const editor = el("div", { class: "editor", hidden: true },
    el("label", {}, "One letter per piece, '.' empty; one 2×2 piece (曹操) must reach the bottom centre.", text),
    el("div", {}, preview, verdict));
  let pending = 0;
  const check = async () => {
    const ticket = ++pending;
    const layout = text.value.trim().split(/\s*\n\s*/).join("/");
    try {
      const answer = await api.checkLayout(layout);
      if (ticket !== pending) return;
      verdict.className = "verdict ok";
      verdict.textContent = answer.variant.startsWith("custom ") ? "✓ a valid layout (New game checks it can be solved)" : `✓ this is ${answer.variant}`;
    } catch (error) {
      if (ticket !== pending) return;
      verdict.className = "verdict bad";
      verdict.textContent = error.message;
    }
  };
  let timer = null;
  const draw = () => {
    preview.replaceChildren(previewSvg(text.value));
    clearTimeout(timer);
    timer = setTimeout(check, 250);
  };
  text.addEventListener("input", draw);
  pick.addEventListener("change", () => { editor.hidden = pick.value !== "custom"; draw(); });
  return {
    node: el("span", { class: "fields" }, el("label", {}, "Layout ", pick), editor),
    params() {
      const layout = pick.value === "custom" ? text.value.trim().split(/\s*\n\s*/).join("/") : pick.value;
      return { layout };
    },
    restore(saved) {
      const layout = String(saved.layout ?? "");
      if (layouts.some((l) => l.name === layout)) {
        pick.value = layout;
      } else if (layout) {
        pick.value = "custom";
        text.value = layout.split("/").join("\n");
        editor.hidden = false;
        draw();
      }
    },
  };
}

export function extra(state) {
  const parts = [];
  if (state.steps !== undefined) parts.push(`steps ${state.steps}`);
  if (state.optimal !== null && state.optimal !== undefined) parts.push(`optimum ${state.optimal}`);
  if (state.best) parts.push(`best ${state.best.fewest_moves}`);
  return parts.join(" · ");
}

function pieces(text) {
  const rows = text.trim().split(/\s*[/\n]\s*/);
  const cells = new Map();
  rows.forEach((row, r) => [...row].forEach((ch, c) => {
    if (ch === ".") return;
    if (!cells.has(ch)) cells.set(ch, []);
    cells.get(ch).push([r, c]);
  }));
  const out = [];
  for (const [id, spots] of [...cells.entries()].sort()) {
    const rs = spots.map((s) => s[0]);
    const cs = spots.map((s) => s[1]);
    const row = Math.min(...rs), col = Math.min(...cs);
    out.push({ id, row, col, height: Math.max(...rs) - row + 1, width: Math.max(...cs) - col + 1 });
  }
  return { pieces: out, height: rows.length, width: Math.max(...rows.map((r) => r.length)) };
}

function previewSvg(text) {
  const { pieces: list, width, height } = pieces(text || ".");
  const s = svg("svg", { viewBox: `0 0 ${width * 20} ${height * 20}`, width: width * 20, height: height * 20 });
  for (const p of list) {
    s.append(svg("rect", { x: p.col * 20 + 1, y: p.row * 20 + 1, width: p.width * 20 - 2, height: p.height * 20 - 2, rx: 3, class: `kp ${kind(p)}` }));
  }
  return s;
}

function kind(p) {
  if (p.width === 2 && p.height === 2) return "boss";
  if (p.width * p.height === 2) return "general";
  return p.width * p.height === 1 ? "soldier" : "odd";
}

function names(list) {
  const out = new Map();
  let g = 0;
  for (const p of list) {
    const k = kind(p);
    out.set(p.id, k === "boss" ? "曹操" : k === "general" ? GENERALS[g++ % GENERALS.length] : "兵");
  }
  return out;
}

function ensureSvg(screen, state) {
  const { width: w, height: h } = state.view;
  const key = `${state.id}`;
  if (screen.svgKey === key) return screen.svg;
  screen.svgKey = key;
  screen.pieces = new Map();
  screen.selected = null;
  screen.names = names(state.view.pieces);
  const W = w * CELL, H = h * CELL;
  const exitX = Math.floor((w - 2) / 2) * CELL;
  screen.svg = svg("svg", { viewBox: `${-PAD} ${-PAD} ${W + 2 * PAD} ${H + 2 * PAD}`, class: "klotski-svg", role: "grid", "aria-label": "Klotski board" },
    svg("rect", { x: -PAD, y: -PAD, width: W + 2 * PAD, height: H + 2 * PAD, rx: 16, class: "frame" }),
    svg("rect", { x: 0, y: 0, width: W, height: H, class: "floor" }),
    svg("rect", { x: exitX + 6, y: H, width: 2 * CELL - 12, height: PAD, class: "exit" }),
    svg("text", { x: exitX + CELL, y: H + PAD - 3, "text-anchor": "middle", class: "exit-label" }, "出口"));
  screen.board.replaceChildren(screen.svg);
  return screen.svg;
}

export function render(state, screen) {
  const root = ensureSvg(screen, state);
  const seen = new Set();
  for (const p of state.view.pieces) {
    seen.add(p.id);
    let g = screen.pieces.get(p.id);
    if (!g) {
      const name = screen.names.get(p.id) ?? "兵";
      const k = kind(p);
      g = svg("g", { class: `piece ${k}`, "data-piece": p.id, tabindex: 0, role: "button", "aria-label": `${name} (${p.id})` },
        svg("rect", { x: 4, y: 4, width: p.width * CELL - 8, height: p.height * CELL - 8, rx: 14, class: `kp ${k}` }),
        svg("text", { x: (p.width * CELL) / 2, y: (p.height * CELL) / 2, dy: "0.35em", "text-anchor": "middle", class: "kname",
          "font-size": k === "boss" ? 46 : k === "soldier" ? 34 : 30,
          "writing-mode": p.height > p.width ? "tb" : null }, name));
      attach(g, p.id, screen);
      screen.pieces.set(p.id, g);
      root.append(g);
    }
    g.dataset.row = p.row;
    g.dataset.col = p.col;
    g.style.transform = `translate(${p.col * CELL}px, ${p.row * CELL}px)`;
    g.classList.remove("hint", "dragging");
  }
  for (const [id, g] of screen.pieces) if (!seen.has(id)) { g.remove(); screen.pieces.delete(id); }
  root.classList.toggle("solved", state.status === "won");
}

function select(screen, id) {
  screen.selected = id;
  for (const [pid, g] of screen.pieces) g.classList.toggle("selected", pid === id);
}

function attach(g, id, screen) {
  let drag = null;
  g.addEventListener("focus", () => select(screen, id));
  g.addEventListener("pointerdown", (e) => {
    select(screen, id);
    drag = { x: e.clientX, y: e.clientY, moved: false };
    g.setPointerCapture(e.pointerId);
  });
  g.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const scale = cellPixels(screen);
    const dx = (e.clientX - drag.x) / scale, dy = (e.clientY - drag.y) / scale;
    if (Math.abs(dx) + Math.abs(dy) > 0.15) drag.moved = true;
    if (drag.moved) {
      g.classList.add("dragging");
      const p = position(screen, id);
      g.style.transform = `translate(${(p.col + clamp(dx)) * CELL}px, ${(p.row + clamp(dy)) * CELL}px)`;
    }
  });
  const end = (e) => {
    if (!drag) return;
    const scale = cellPixels(screen);
    const dc = Math.round((e.clientX - drag.x) / scale), dr = Math.round((e.clientY - drag.y) / scale);
    const moved = drag.moved;
    drag = null;
    g.classList.remove("dragging");
    if (!moved) return;
    const move = legalBy(screen.state, id, dr, dc);
    if (move) screen.move(move);
    else { render(screen.state, screen); nope(g); }
  };
  g.addEventListener("pointerup", end);
  g.addEventListener("pointercancel", () => { drag = null; render(screen.state, screen); });
}

const clamp = (v) => Math.max(-3, Math.min(3, v));

function cellPixels(screen) {
  const box = screen.svg.getBoundingClientRect();
  const w = screen.state.view.width;
  return box.width / (w + (2 * PAD) / CELL);
}

function position(screen, id) {
  return screen.state.view.pieces.find((p) => p.id === id);
}

// The legal move of this piece whose steps add up to (dr, dc), if there is one.
function legalBy(state, id, dr, dc) {
  if (dr === 0 && dc === 0) return null;
  for (const move of state.view.legal) {
    const [pid, steps] = move.split(":");
    if (pid !== id) continue;
    let r = 0, c = 0;
    for (const s of steps) { r += STEP[s][0]; c += STEP[s][1]; }
    if (r === dr && c === dc) return move;
  }
  return null;
}

function nope(g) {
  g.classList.add("nope");
  setTimeout(() => g.classList.remove("nope"), 300);
}

export function illegal(move, error, screen) {
  const g = screen.pieces.get(String(move).split(":")[0]);
  if (g) nope(g);
  toast(error.message, "error");
}

export function showHint(hint, screen) {
  const g = screen.pieces.get(hint.piece);
  if (g) g.classList.add("hint");
  select(screen, hint.piece);
  const arrows = { U: "↑", D: "↓", L: "←", R: "→" };
  const steps = [...hint.move.split(":")[1]].map((s) => arrows[s]).join("");
  screen.say(`Hint: move ${screen.names.get(hint.piece) ?? hint.piece} ${steps}`);
}

export function onKey(event, screen) {
  const letter = { ArrowUp: "U", ArrowDown: "D", ArrowLeft: "L", ArrowRight: "R" }[event.key];
  if (!letter || !screen.state || !screen.selected) return;
  event.preventDefault();
  const [dr, dc] = STEP[letter];
  const move = legalBy(screen.state, screen.selected, dr, dc);
  if (move) screen.move(`${screen.selected}:${letter}`);
  else { const g = screen.pieces.get(screen.selected); if (g) nope(g); }
}
