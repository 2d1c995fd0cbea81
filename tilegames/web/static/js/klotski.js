// 华容道: drag a piece, or click it and use the arrow keys; consecutive moves of one piece count as one move.

import { api } from "./api.js";
import { errorText, lang, t } from "./i18n.js";
import { el, orDash, svg } from "./ui.js";
import { levelName, levelOf, levelScreen, nextLevel } from "./progress.js";

export const playbackDelay = 420;
export const winTitle = "win.escaped";
const CELL = 100;
const PAD = 30;
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
  const pick = el("select", { name: "layout", "data-deal": "" },
    layouts.map((l) => el("option", { value: l.name, text: lang() === "zh" ? l.name : `${l.english || l.alias} · ${l.name}` })),
    el("option", { value: "custom", text: t("set.custom") }));
  const text = el("textarea", { name: "custom", rows: 5, cols: 8, spellcheck: "false", "aria-label": t("set.customLabel"),
    placeholder: "ABBC\nABBC\nDEEF\nDGHF\nI..J" });
  text.value = "ABBC\nABBC\nDEEF\nDGHF\nI..J";
  const preview = el("div", { class: "preview" });
  const verdict = el("p", { class: "verdict", "data-verdict": "", "aria-live": "polite" });
  const editor = el("div", { class: "editor", hidden: true },
    el("label", {}, t("set.customHelp"), text),
    el("div", {}, preview, verdict));
  let pending = 0;
  const check = async () => {
    const ticket = ++pending;
    const layout = text.value.trim().split(/\s*\n\s*/).join("/");
    try {
      const answer = await api.checkLayout(layout);
      if (ticket !== pending) return;
      verdict.className = "verdict ok";
      verdict.textContent = answer.variant.startsWith("custom ") ? t("set.valid") : t("set.known", { name: answer.variant });
    } catch (error) {
      if (ticket !== pending) return;
      verdict.className = "verdict bad";
      verdict.textContent = error.code === "bad_request" || error.status === 422 ? error.message : errorText(error);
    }
  };
  let timer = null;
  const draw = () => {
    preview.replaceChildren(previewSvg(text.value));
    clearTimeout(timer);
    timer = setTimeout(check, 250);
  };
  text.addEventListener("input", draw);
  // A named layout deals at once (the screen asks first mid-game); "custom" opens the editor and waits for New game.
  pick.addEventListener("change", () => {
    editor.hidden = pick.value !== "custom";
    if (pick.value === "custom") pick.removeAttribute("data-deal");
    else pick.setAttribute("data-deal", "");
    draw();
  });
  const levelsButton = el("button", { type: "button", "data-action": "levels", onclick: async () => {
    const level = await levelScreen(catalog.klotski.levels, levelsButton);
    if (level) screen.newGame({ params: { deal: level.deal }, question: "ask.change" });
  } }, t("btn.levels"));
  return {
    node: el("span", { class: "fields" }, levelsButton, el("label", {}, `${t("set.layout")} `, pick), editor),
    params() {
      const layout = pick.value === "custom" ? text.value.trim().split(/\s*\n\s*/).join("/") : pick.value;
      return { layout };
    },
    restore(saved) {
      const layout = String(saved.layout ?? "");
      if (layouts.some((l) => l.name === layout)) {
        pick.value = layout;
        editor.hidden = true;
        pick.setAttribute("data-deal", "");
      } else if (layout) {
        pick.value = "custom";
        pick.removeAttribute("data-deal");
        text.value = layout.split("/").join("\n");
        editor.hidden = false;
        draw();
      }
    },
  };
}

/** The win card's "Next layout": the level after this one, easiest first, named in the page's language. */
export function next(state, catalog) {
  const level = nextLevel(catalog.klotski.levels, state.variant);
  return level ? { label: "btn.nextLayout", params: { deal: level.deal }, name: levelName(level) } : null;
}

/** The name of the level won, for the win card (null for a custom layout or the daily puzzle). */
export function levelTitle(state, catalog) {
  const level = levelOf(catalog.klotski.levels, state.variant);
  return level ? levelName(level) : null;
}

export function extra(state) {
  const parts = [];
  if (state.steps !== undefined) parts.push(t("stat.steps", { n: state.steps }));
  if (state.optimal !== null && state.optimal !== undefined) parts.push(t("stat.optimal", { n: state.optimal }));
  if (state.best) parts.push(t("stat.best", { n: orDash(state.best.fewest_moves) }));
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

// Each piece's face (its Chinese name, in both languages) and its name in the page's language.
function names(list) {
  const out = new Map();
  let g = 0;
  for (const p of list) {
    const k = kind(p);
    if (k === "boss") out.set(p.id, { face: "曹操", name: t("gen.boss") });
    else if (k === "general") {
      const i = g++ % GENERALS.length;
      out.set(p.id, { face: GENERALS[i], name: t(`gen.${i}`) });
    } else out.set(p.id, { face: "兵", name: t("gen.soldier") });
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
  screen.svg = svg("svg", { viewBox: `${-PAD} ${-PAD} ${W + 2 * PAD} ${H + 2 * PAD}`, class: "klotski-svg", role: "group", "aria-label": t("klotski.board") },
    svg("rect", { x: -PAD, y: -PAD, width: W + 2 * PAD, height: H + 2 * PAD, rx: 16, class: "frame" }),
    svg("rect", { x: 0, y: 0, width: W, height: H, class: "floor" }),
    svg("rect", { x: exitX + 6, y: H, width: 2 * CELL - 12, height: PAD, class: "exit" }),
    svg("text", { x: exitX + CELL, y: H + PAD / 2, dy: "0.36em", "text-anchor": "middle", class: "exit-label" }, t("klotski.exit")));
  screen.svg.append(screen.layer = svg("g", { class: "pieces" }));
  screen.board.replaceChildren(screen.svg);
  return screen.svg;
}

const label = (screen, p) => t("klotski.piece", { name: screen.names.get(p.id)?.name ?? t("gen.soldier"), r: p.row + 1, c: p.col + 1 });

export function render(state, screen) {
  ensureSvg(screen, state);
  const seen = new Set();
  const focused = document.activeElement;
  // Tab follows the board: pieces in reading order of their top-left cells.
  const ordered = [...state.view.pieces].sort((a, b) => a.row - b.row || a.col - b.col);
  let previous = null;
  for (const p of ordered) {
    seen.add(p.id);
    let g = screen.pieces.get(p.id);
    if (!g) {
      const { face, name } = screen.names.get(p.id) ?? { face: "兵", name: t("gen.soldier") };
      const k = kind(p);
      g = svg("g", { class: `piece ${k}`, "data-piece": p.id, tabindex: 0, role: "button" },
        svg("title", {}, name),
        svg("rect", { x: 4, y: 4, width: p.width * CELL - 8, height: p.height * CELL - 8, rx: 14, class: `kp ${k}` }),
        svg("text", { x: (p.width * CELL) / 2, y: (p.height * CELL) / 2, dy: "0.35em", "text-anchor": "middle", class: "kname", "aria-hidden": "true",
          "font-size": k === "boss" ? 46 : k === "soldier" ? 34 : 30,
          "writing-mode": p.height > p.width ? "tb" : null }, face));
      attach(g, p.id, screen);
      screen.pieces.set(p.id, g);
      screen.layer.append(g);
    }
    const next = previous ? previous.nextSibling : screen.layer.firstChild;
    if (next !== g) (screen.layer.moveBefore ? screen.layer.moveBefore(g, next) : screen.layer.insertBefore(g, next));
    previous = g;
    g.dataset.row = p.row;
    g.dataset.col = p.col;
    g.setAttribute("aria-label", label(screen, p));
    g.style.transform = `translate(${p.col * CELL}px, ${p.row * CELL}px)`;
    g.classList.remove("hint", "dragging");
    g.classList.toggle("leaving", state.status === "won" && kind(p) === "boss");
  }
  for (const [id, g] of screen.pieces) if (!seen.has(id)) { g.remove(); screen.pieces.delete(id); }
  if (focused?.isConnected && document.activeElement !== focused) focused.focus();
  screen.svg.classList.toggle("solved", state.status === "won");
}

function select(screen, id) {
  screen.selected = id;
  for (const [pid, g] of screen.pieces) g.classList.toggle("selected", pid === id);
}

// How many free cells the piece has in each direction (a drag stops at the first obstacle).
function room(state, id) {
  const { width: w, height: h, pieces: list } = state.view;
  const taken = new Set();
  for (const p of list) {
    if (p.id === id) continue;
    for (let r = p.row; r < p.row + p.height; r++) for (let c = p.col; c < p.col + p.width; c++) taken.add(`${r},${c}`);
  }
  const me = list.find((p) => p.id === id);
  const free = (dr, dc) => {
    let n = 0;
    for (;;) {
      const k = n + 1;
      for (let r = me.row; r < me.row + me.height; r++) {
        for (let c = me.col; c < me.col + me.width; c++) {
          const [rr, cc] = [r + dr * k, c + dc * k];
          if (rr < 0 || rr >= h || cc < 0 || cc >= w || taken.has(`${rr},${cc}`)) return n;
        }
      }
      n = k;
    }
  };
  return { up: free(-1, 0), down: free(1, 0), left: free(0, -1), right: free(0, 1) };
}

function attach(g, id, screen) {
  let drag = null;
  g.addEventListener("focus", () => select(screen, id));
  g.addEventListener("pointerdown", (e) => {
    select(screen, id);
    drag = { x: e.clientX, y: e.clientY, moved: false, room: room(screen.state, id), dr: 0, dc: 0 };
    g.setPointerCapture(e.pointerId);
  });
  g.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const scale = cellPixels(screen);
    const dx = (e.clientX - drag.x) / scale, dy = (e.clientY - drag.y) / scale;
    if (Math.abs(dx) + Math.abs(dy) > 0.15) drag.moved = true;
    if (!drag.moved) return;
    g.classList.add("dragging");
    // Along the stronger direction only, and no further than the free cells that way.
    const horizontal = Math.abs(dx) >= Math.abs(dy);
    const along = horizontal ? dx : dy;
    const limit = horizontal ? (along > 0 ? drag.room.right : drag.room.left) : along > 0 ? drag.room.down : drag.room.up;
    const amount = Math.sign(along) * Math.min(Math.abs(along), limit);
    [drag.dc, drag.dr] = horizontal ? [amount, 0] : [0, amount];
    const p = position(screen, id);
    g.style.transform = `translate(${(p.col + drag.dc) * CELL}px, ${(p.row + drag.dr) * CELL}px)`;
  });
  const end = () => {
    if (!drag) return;
    const { moved } = drag;
    const dr = Math.round(drag.dr), dc = Math.round(drag.dc);
    drag = null;
    g.classList.remove("dragging");
    if (!moved) return;
    const move = legalBy(screen.state, id, dr, dc);
    if (move) screen.move(move);
    else { render(screen.state, screen); if (dr || dc) nope(g); }
  };
  g.addEventListener("pointerup", end);
  g.addEventListener("pointercancel", () => { drag = null; render(screen.state, screen); });
}

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
  screen.say(t("err.illegal"), "error");
}

export function showHint(hint, screen) {
  const g = screen.pieces.get(hint.piece);
  if (g) g.classList.add("hint");
  select(screen, hint.piece);
  const arrows = { U: "↑", D: "↓", L: "←", R: "→" };
  const letters = [...hint.move.split(":")[1]];
  const steps = letters.map((s) => `${t(`klotski.dir.${s}`)}${arrows[s]}`).join(lang() === "zh" ? "、" : ", ");
  screen.say(t("klotski.hint", { name: screen.names.get(hint.piece)?.name ?? hint.piece, steps }));
}

export function onKey(event, screen) {
  const letter = { ArrowUp: "U", ArrowDown: "D", ArrowLeft: "L", ArrowRight: "R" }[event.key];
  if (!letter || !screen.state || !screen.selected) return;
  event.preventDefault();
  const id = screen.selected;
  const [dr, dc] = STEP[letter];
  if (!screen.waiting && !legalBy(screen.state, id, dr, dc)) {
    const g = screen.pieces.get(id);
    if (g) nope(g);
    return;
  }
  screen.move((state) => (legalBy(state, id, dr, dc) ? `${id}:${letter}` : null));
}
