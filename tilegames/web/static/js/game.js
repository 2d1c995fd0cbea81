// The frame every game shares: settings, toolbar (undo, hint, solve/pause), status (moves, time), board, win screen.
// A game module supplies: settings(catalog) -> {node, params()}, render(state, screen), showHint(hint, screen),
// and optionally onKey(event, screen). The game id lives in localStorage so a reload finds the game again.

import { api, ApiError } from "./api.js";
import { clock, dialog, el, sleep, toast } from "./ui.js";

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

export class GameScreen {
  constructor(root, game, spec, catalog) {
    this.root = root;
    this.game = game;
    this.spec = spec;
    this.catalog = catalog;
    this.state = null;
    this.busy = false;
    this.playing = null; // solve playback: {moves, index, paused}
    this.key = `tilegames.${game}`;
    this.build();
  }

  build() {
    const settings = this.spec.settings(this.catalog, this);
    this.settings = settings;
    try {
      const saved = JSON.parse(localStorage.getItem(`${this.key}.settings`) || "null");
      if (saved) settings.restore?.(saved);
    } catch {
      localStorage.removeItem(`${this.key}.settings`);
    }
    this.movesOut = el("output", { "data-stat": "moves", text: "0" });
    this.timeOut = el("output", { "data-stat": "time", text: "0:00" });
    this.extraOut = el("output", { "data-stat": "extra" });
    this.undoButton = el("button", { type: "button", "data-action": "undo", onclick: () => this.undo(), title: "Undo (U)" }, "↶ Undo");
    this.hintButton = el("button", { type: "button", "data-action": "hint", onclick: () => this.hint(), title: "Hint (H)" }, "✦ Hint");
    this.solveButton = el("button", { type: "button", "data-action": "solve", onclick: () => this.solveOrPause(), title: "Solve (S)" }, "▶ Solve");
    this.board = el("div", { class: `board ${this.game}`, "data-board": this.game });
    this.message = el("p", { class: "message", "aria-live": "polite" });
    this.root.replaceChildren(
      el(
        "section",
        { class: `screen ${this.game}` },
        el("h1", {}, this.spec.title),
        el(
          "form",
          { class: "settings", onsubmit: (e) => { e.preventDefault(); this.newGame(); } },
          settings.node,
          el("button", { type: "submit", class: "primary", "data-action": "new" }, "New game"),
        ),
        el(
          "div",
          { class: "status" },
          el("span", {}, "Moves ", this.movesOut),
          el("span", {}, "Time ", this.timeOut),
          el("span", { class: "extra" }, this.extraOut),
        ),
        this.board,
        el("div", { class: "toolbar" }, this.undoButton, this.hintButton, this.solveButton),
        this.message,
        el("p", { class: "keys" }, this.spec.keys || ""),
      ),
    );
    this.onKey = (event) => this.key_(event);
    document.addEventListener("keydown", this.onKey);
    this.ticker = setInterval(() => this.tick(), 250);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    clearInterval(this.ticker);
    if (this.playing) this.playing.stopped = true;
  }

  async start() {
    const saved = localStorage.getItem(this.key);
    if (saved) {
      try {
        const state = await api.game(saved);
        if (state.status === "playing") {
          this.show(state);
          this.say("Welcome back: your game is as you left it.");
          return;
        }
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 404) throw error;
      }
    }
    await this.newGame();
  }

  async newGame() {
    if (this.playing) this.playing.stopped = true;
    this.playing = null;
    this.say("Dealing…");
    try {
      const params = this.settings.params();
      const state = await api.create({ game: this.game, ...params });
      localStorage.setItem(this.key, state.id);
      localStorage.setItem(`${this.key}.settings`, JSON.stringify(params));
      this.show(state);
      this.say("");
    } catch (error) {
      this.say(error.message, "error");
      toast(error.message, "error");
    }
  }

  show(state) {
    this.state = state;
    this.shownAt = performance.now();
    this.board.dataset.gameId = state.id;
    this.board.dataset.status = state.status;
    this.board.dataset.moves = state.moves;
    this.board.dataset.plies = state.plies;
    this.movesOut.textContent = String(state.moves);
    this.undoButton.disabled = !state.can_undo;
    this.hintButton.disabled = state.status !== "playing";
    this.solveButton.disabled = state.status !== "playing" && !this.playing;
    this.spec.render(state, this);
    this.tick();
    if (state.status === "won") this.won();
  }

  tick() {
    if (!this.state) return;
    let seconds = this.state.seconds;
    if (this.state.running) seconds += Math.min((performance.now() - this.shownAt) / 1000, 60);
    this.timeOut.textContent = clock(seconds);
    if (this.spec.extra) this.extraOut.textContent = this.spec.extra(this.state, seconds);
  }

  say(text, kind = "") {
    this.message.textContent = text;
    this.message.className = `message ${kind}`;
  }

  // Send a move; the server answers the new state or a 4xx that changes nothing.
  async move(move) {
    if (!this.state || this.state.status !== "playing" || this.busy) return null;
    this.busy = true;
    try {
      const state = await api.move(this.state.id, move);
      this.show(state);
      return state;
    } catch (error) {
      if (error.status === 422) this.spec.illegal?.(move, error, this);
      else toast(error.message, "error");
      await this.resync();
      return null;
    } finally {
      this.busy = false;
    }
  }

  // After a refused move: if the game changed elsewhere (another tab), show the server's state.
  async resync() {
    try {
      const fresh = await api.game(this.state.id);
      if (fresh.board !== this.state.board || fresh.status !== this.state.status) this.show(fresh);
    } catch {
      // offline or gone: the next action will say so
    }
  }

  async undo() {
    if (!this.state || this.busy) return;
    this.busy = true;
    try {
      this.show(await api.undo(this.state.id));
    } catch (error) {
      toast(error.message, "error");
    } finally {
      this.busy = false;
    }
  }

  async hint() {
    if (!this.state || this.state.status !== "playing") return;
    this.hintButton.disabled = true;
    try {
      const answer = await api.hint(this.state.id);
      if (answer.hint.move === null) toast("No move to suggest.", "info");
      else if (answer.board === this.state.board) this.spec.showHint(answer.hint, this);
      this.state.hints += 1;
    } catch (error) {
      toast(error.message, "error");
    } finally {
      this.hintButton.disabled = this.state.status !== "playing";
    }
  }

  async solveOrPause() {
    if (this.playing) {
      this.playing.paused = !this.playing.paused;
      this.solveButton.textContent = this.playing.paused ? "▶ Resume" : "⏸ Pause";
      this.say(this.playing.paused ? "Playback paused: press Resume (S) to go on." : "Playing the solution back…");
      return;
    }
    if (!this.state || this.state.status !== "playing") return;
    this.say("Solving…");
    let answer;
    try {
      answer = await api.solve(this.state.id);
    } catch (error) {
      this.say(error.message, "error");
      return;
    }
    this.say(`${answer.optimal ? "Optimal" : "A"} solution: ${answer.length} moves. Playing it back…`);
    const playing = { moves: answer.moves, paused: false, stopped: false };
    this.playing = playing;
    this.solveButton.textContent = "⏸ Pause";
    this.solveButton.dataset.playing = "1";
    for (const move of answer.moves) {
      await sleep(this.spec.playbackDelay || 320);
      while (playing.paused && !playing.stopped) await sleep(100);
      if (playing.stopped) break;
      if (!(await this.move(move))) break;
    }
    if (this.playing === playing) this.playing = null;
    this.solveButton.textContent = "▶ Solve";
    delete this.solveButton.dataset.playing;
    this.solveButton.disabled = this.state.status !== "playing";
  }

  won() {
    const s = this.state;
    const rows = [["Your moves", String(s.moves)]];
    if (s.steps !== undefined) rows.push(["Steps (one cell each)", String(s.steps)]);
    if (s.optimal !== null && s.optimal !== undefined) rows.push(["Optimal", String(s.optimal)]);
    rows.push(["Time", clock(s.seconds)]);
    if (s.game === "link") rows.push(["Score", String(s.view.score)]);
    if (s.best) {
      rows.push([`Best moves (${s.variant})`, String(s.best.fewest_moves)]);
      rows.push(["Best time", clock(s.best.fastest_seconds)]);
      if (s.best.top_score !== null) rows.push(["Top score", String(s.best.top_score)]);
    }
    if (s.autoplay) rows.push(["Note", "played by the solver: not a record"]);
    else if (s.hints || s.undos) rows.push(["Help used", `${plural(s.hints, "hint")}, ${plural(s.undos, "undo")}`]);
    this.say("Solved!", "win");
    dialog(this.spec.winTitle || "Solved!", rows, [
      ["New game", () => this.newGame()],
      ["Close", null],
    ]);
  }

  key_(event) {
    if (event.target.closest?.("input, select, textarea")) return;
    if (document.querySelector(".overlay")) return;
    const k = event.key.toLowerCase();
    if (k === "u" && !event.ctrlKey) { this.undo(); event.preventDefault(); return; }
    if (k === "h") { this.hint(); event.preventDefault(); return; }
    if (k === "s" && !event.ctrlKey) { this.solveOrPause(); event.preventDefault(); return; }
    if (k === "n") { this.newGame(); event.preventDefault(); return; }
    this.spec.onKey?.(event, this);
  }
}
