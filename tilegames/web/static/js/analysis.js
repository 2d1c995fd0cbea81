// Analysis mode: after every move, how far the position is from solved (the engine's exact measure, from
// GET /api/games/{id}/analysis) and a mark on each piece or tile that can move: better / same / worse, as a
// sign and in its label, not by colour alone. Off by default, remembered per browser; a game played with it on
// sets no record (the server marks it). The page keeps each position's distance (per game, in localStorage)
// and draws them on the win card as a small SVG graph: the moves that lost ground stand out.

import { call } from "./api.js";
import { errorText, t } from "./i18n.js";
import { el, svg } from "./ui.js";

const STORE = "tilegames.analysis";
const RANK = { better: 3, same: 2, worse: 1, unknown: 0 };
const SIGN = { better: "+", same: "=", worse: "−", unknown: "?" };
// Where the tile a sliding move letter moves stands, relative to the blank (as tilegames/web/games/slide.py).
const FROM_BLANK = { U: [1, 0], D: [-1, 0], L: [0, 1], R: [0, -1] };
const RETRY_MS = 1500;

export class Analysis {
  constructor(screen) {
    this.screen = screen;
    this.on = localStorage.getItem(STORE) === "1";
    this.busy = false;
    this.again = false;
    this.running = null; // the analysis on its way, if any
    this.marked = [];
    this.button = el("button", { type: "button", class: "analysis-switch", "data-action": "analysis", "aria-pressed": String(this.on),
      title: t("ana.title"), onclick: () => this.setOn(!this.on) }, t("ana.switch"));
    this.out = el("span", { class: "stat analysis", "data-stat": "analysis", hidden: !this.on });
  }

  setOn(on) {
    this.on = on;
    localStorage.setItem(STORE, on ? "1" : "0");
    this.button.setAttribute("aria-pressed", String(on));
    this.out.hidden = !on;
    this.clear();
    if (on) this.shown(this.screen.state);
    else this.out.textContent = "";
  }

  /** Called by the frame after every state it shows: forget the old marks and ask about the new position. */
  shown(state) {
    this.clear();
    if (!this.on || !state) return;
    if (state.status === "won") {
      this.record(state, state.plies, 0);
      this.out.textContent = t("ana.solved");
      return;
    }
    if (state.status === "playing") this.request();
  }

  async request() {
    if (this.busy) {
      this.again = true;
      return;
    }
    const asked = this.screen.state;
    this.busy = true;
    let done;
    this.running = new Promise((resolve) => { done = resolve; });
    this.out.dataset.busy = "1";
    this.out.textContent = t("ana.thinking");
    let retry = false;
    try {
      const answer = await call(`/api/games/${encodeURIComponent(asked.id)}/analysis`);
      const now = this.screen.state;
      if (this.on && now && answer.id === now.id && answer.board === now.board && answer.plies === now.plies) this.draw(answer);
      else this.again = true;
    } catch (error) {
      this.out.textContent = errorText(error);
      retry = error.status === 429 || error.status === 503;
    } finally {
      this.busy = false;
      delete this.out.dataset.busy;
      this.running = null;
      done();
    }
    const now = this.screen.state;
    if (!this.on || now?.status !== "playing") return;
    if (this.again) {
      this.again = false;
      this.request();
    } else if (retry) {
      setTimeout(() => { if (this.screen.state === now && this.on) this.request(); }, RETRY_MS);
    }
  }

  /** Settles when no analysis is on its way: a hint or a solve waits for it (the pool runs one job per client). */
  idle() {
    return this.running ?? Promise.resolve();
  }

  draw(answer) {
    const state = this.screen.state;
    this.record(state, answer.plies, answer.distance);
    this.out.dataset.distance = answer.distance ?? "";
    this.out.dataset.plies = answer.plies;
    this.out.textContent = this.words(answer);
    const found = new Map(); // element -> {verdict, after}
    for (const m of answer.moves) {
      for (const g of this.targets(m.move, state)) {
        const seen = found.get(g);
        if (!seen || RANK[m.verdict] > RANK[seen.verdict]) found.set(g, { verdict: m.verdict, after: m.distance, clearable: m.clearable });
      }
    }
    for (const [g, mark] of found) this.mark(g, mark);
  }

  words(answer) {
    if (answer.metric === "clearable") {
      if (answer.clearable === true) return t("ana.clearable", { n: answer.distance });
      return t(answer.clearable === false ? "ana.stuck" : "ana.unknown");
    }
    if (answer.distance === null) return t("ana.unknown");
    if (answer.steps !== undefined && answer.steps !== null) return t("ana.distanceSteps", { n: answer.distance, s: answer.steps });
    return t("ana.distance", { n: answer.distance });
  }

  /** The pieces or tiles a move moves (Lianliankan: both tiles of the pair). */
  targets(move, state) {
    const s = this.screen;
    if (state.game === "slide") {
      const { width: w, tiles } = state.view;
      const blank = tiles.indexOf(0);
      const [dr, dc] = FROM_BLANK[move[0]];
      const [r, c] = [Math.floor(blank / w) + dr * move.length, (blank % w) + dc * move.length];
      const g = s.tiles?.get(tiles[r * w + c]);
      return g ? [g] : [];
    }
    if (state.game === "klotski") {
      const g = s.pieces?.get(move.split(":")[0]);
      return g ? [g] : [];
    }
    return move.map(([r, c]) => s.cells?.get(`${r},${c}`)).filter(Boolean);
  }

  mark(g, { verdict, after, clearable }) {
    g.classList.add(`verdict-${verdict}`);
    g.dataset.verdict = verdict;
    const box = g.getBBox();
    const size = Math.max(14, Math.round(Math.min(box.width, box.height) * 0.3));
    const badge = svg("text", { class: `verdict-mark ${verdict}`, x: box.x + box.width - size * 0.35, y: box.y + size * 0.95,
      "text-anchor": "end", "font-size": size, "aria-hidden": "true" }, SIGN[verdict]);
    g.append(badge);
    let words = t(`ana.v.${verdict}`);
    if (after !== null && after !== undefined) words += ` (${t("ana.after", { n: after })})`;
    if (clearable === true || clearable === false) words = t(clearable ? "ana.keeps" : "ana.stuck");
    g.dataset.label0 = g.getAttribute("aria-label") ?? "";
    g.setAttribute("aria-label", `${g.dataset.label0}; ${words}`);
    this.marked.push([g, badge]);
  }

  clear() {
    for (const [g, badge] of this.marked) {
      badge.remove();
      for (const v of Object.keys(RANK)) g.classList.remove(`verdict-${v}`);
      // The game's render sets a fresh label; put ours back only if it is still there.
      if (g.dataset.label0 !== undefined && g.getAttribute("aria-label")?.startsWith(`${g.dataset.label0}; `)) g.setAttribute("aria-label", g.dataset.label0);
      delete g.dataset.verdict;
      delete g.dataset.label0;
    }
    this.marked = [];
  }

  // The distance of each position of one game, by ply (kept for the game on screen only).
  trace(state) {
    try {
      const saved = JSON.parse(localStorage.getItem(`${STORE}.${state.game}`) || "null");
      if (saved?.id === state.id) return saved.d;
    } catch {
      // a damaged entry: start again
    }
    return {};
  }

  record(state, plies, distance) {
    const d = this.trace(state);
    d[plies] = distance;
    // Moves taken back are forgotten: the graph shows the line that was played.
    for (const k of Object.keys(d)) if (Number(k) > plies) delete d[k];
    localStorage.setItem(`${STORE}.${state.game}`, JSON.stringify({ id: state.id, d }));
  }

  /** The win card's note and graph: a game analysed sets no record; the distance over the game, if kept. */
  win(state, rows) {
    if (state.analysed && !state.autoplay) rows.push([t("win.note"), t("ana.noRecord")]);
    const d = this.trace(state);
    const points = Object.entries(d).map(([k, v]) => [Number(k), v]).sort((a, b) => a[0] - b[0]);
    if (points.filter(([, v]) => v !== null).length < 2) return null;
    return graph(points);
  }
}

/** An SVG line of the distance (y) over the moves (x); a rise (or the board no longer clearable) is marked. */
function graph(points) {
  const [W, H, P] = [300, 120, 22];
  const last = points[points.length - 1][0] || 1;
  const top = Math.max(1, ...points.map(([, v]) => v ?? 0));
  const x = (k) => P + ((W - 2 * P) * k) / last;
  const y = (v) => H - P + -((H - 2 * P) * v) / top;
  const known = points.filter(([, v]) => v !== null);
  const lost = [];
  for (let i = 1; i < points.length; i++) {
    const [[k0, v0], [k1, v1]] = [points[i - 1], points[i]];
    if (k1 === k0 + 1 && v0 !== null && (v1 === null ? true : v1 > v0)) lost.push([k1, v1 ?? v0]);
  }
  const label = t("ana.graph", { n: lost.length });
  const chart = svg("svg", { class: "analysis-graph", "data-analysis-graph": "", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label, width: W, height: H },
    svg("title", {}, label),
    svg("line", { x1: P, y1: H - P, x2: W - P, y2: H - P, class: "axis" }),
    svg("line", { x1: P, y1: P, x2: P, y2: H - P, class: "axis" }),
    svg("text", { x: P - 4, y: P + 4, "text-anchor": "end", class: "tick" }, String(top)),
    svg("text", { x: P - 4, y: H - P + 4, "text-anchor": "end", class: "tick" }, "0"),
    svg("text", { x: W - P, y: H - 6, "text-anchor": "end", class: "tick" }, t("ana.axis", { n: last })),
    svg("polyline", { points: known.map(([k, v]) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" "), class: "trace", fill: "none" }),
    ...lost.map(([k, v]) => svg("circle", { cx: x(k).toFixed(1), cy: y(v).toFixed(1), r: 4.5, class: "lost", "data-lost": k },
      svg("title", {}, t("ana.lostAt", { n: k })))),
  );
  return el("figure", { class: "analysis-figure" }, chart, el("figcaption", { text: label }));
}
