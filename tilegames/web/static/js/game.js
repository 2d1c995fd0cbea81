// The frame every game shares: settings, status (moves, time), board, toolbar (undo, redo, hint, solve, pause),
// the message line, help, confirmations and the win card. A game module supplies: settings(catalog, screen) ->
// {node, params(), restore(saved)}, render(state, screen), showHint(hint, screen), illegal(move, error, screen),
// extra(state), and optionally onKey(event, screen). The game id lives in localStorage so a reload finds it again.

import { Analysis } from "./analysis.js";
import { api, ApiError } from "./api.js";
import { help } from "./help.js";
import { progressLine, progressOf } from "./progress.js";
import { errorText, t } from "./i18n.js";
import { clock, confirm, copyText, dialog, el, orDash, rowsList, sleep, toast } from "./ui.js";

const IDLE_CAP = 60; // seconds: the server's clock counts at most this much of any gap between actions
const DEAL_TRIES = 5; // a deal refused with Retry-After (busy, rate limited) is asked again this many times in all
const DEAL_WAIT_CAP = 10; // seconds: the longest wait before asking again
const QUIET_KEYS = new Set(["Shift", "Control", "Alt", "Meta", "CapsLock", "Tab"]); // keys that never act

export class GameScreen {
  constructor(root, game, spec, catalog) {
    this.root = root;
    this.game = game;
    this.spec = spec;
    this.catalog = catalog;
    this.state = null;
    this.playing = null; // solve playback: {stopped}
    this.paused = false;
    this.queue = Promise.resolve(); // moves are sent one after another, in the order they were made
    this.waiting = 0; // actions queued or on their way
    this.done = []; // the moves made on this screen, one per ply, for redo
    this.undone = []; // moves taken back, to redo until a new move is made
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
    const button = (action, label, shortcut, fn) =>
      el("button", { type: "button", "data-action": action, "aria-keyshortcuts": shortcut, title: `${label} (${shortcut})`, onclick: fn }, label);
    this.movesOut = el("span", { class: "stat", "data-stat": "moves", text: "0" });
    this.timeOut = el("span", { class: "stat", "data-stat": "time", text: "0:00" });
    this.extraOut = el("span", { class: "stat", "data-stat": "extra" });
    this.undoButton = button("undo", t("btn.undo"), "U", () => this.undo());
    this.redoButton = button("redo", t("btn.redo"), "R", () => this.redo());
    this.hintButton = button("hint", t("btn.hint"), "H", () => this.hint());
    this.solveButton = button("solve", t("btn.solve"), "S", () => this.solve());
    this.pauseButton = button("pause", t("btn.pause"), "P", () => this.togglePause());
    this.restartButton = button("restart", t("btn.restart"), "", () => this.restart());
    this.restartButton.hidden = true;
    this.analysis = new Analysis(this);
    this.newButton = el("button", { type: "submit", class: "primary", "data-action": "new", "aria-keyshortcuts": "N" }, t("btn.new"));
    this.board = el("div", { class: `board ${this.game}`, "data-board": this.game });
    this.board.addEventListener("pointerdown", () => this.stopPlayback(), true);
    this.cover = el("button", { type: "button", class: "cover", "data-cover": "", hidden: true, onclick: () => this.togglePause() }, t("msg.paused"));
    this.message = el("p", { class: "message", "data-message": "", role: "status" });
    this.progressOut = el("span", { class: "progress", "data-progress": "" });
    this.root.replaceChildren(
      el(
        "section",
        { class: `screen ${this.game}` },
        el("div", { class: "title" },
          el("h1", { text: t(`${this.game}.title`) }),
          el("button", { type: "button", class: "help", "data-action": "help", "aria-keyshortcuts": "?", onclick: () => this.showHelp() }, `? ${t("btn.help")}`)),
        el("form", { class: "settings", onsubmit: (e) => { e.preventDefault(); this.newGame(); }, onchange: (e) => this.settingChanged(e) },
          settings.node, this.newButton),
        el("div", { class: "status" },
          el("span", {}, `${t("stat.moves")} `, this.movesOut),
          el("span", {}, `${t("stat.time")} `, this.timeOut),
          el("span", { class: "extra" }, this.extraOut),
          this.analysis.out,
          this.progressOut),
        el("div", { class: "controls" },
          el("div", { class: "toolbar", role: "toolbar", "aria-label": t(`${this.game}.title`) },
            this.undoButton, this.redoButton, this.hintButton, this.solveButton, this.pauseButton, this.restartButton, this.analysis.button),
          this.message),
        el("div", { class: "board-wrap" }, this.board, this.cover),
        el("p", { class: "keys", text: t(`${this.game}.keys`) }),
      ),
    );
    this.onKey = (event) => this.keyDown(event);
    document.addEventListener("keydown", this.onKey);
    this.ticker = setInterval(() => this.tick(), 250);
    this.buttons(); // no board until the first deal or saved game arrives
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    clearInterval(this.ticker);
    if (this.playing) this.playing.stopped = true;
  }

  /**
   * Show `state` if given (a language switch keeps the game on screen), else the saved game (when it is on
   * `deal`, if the address names one), else deal (`deal` from a shared address, or the settings).
   */
  async start(state = null, deal = null) {
    if (state) {
      this.show(state, { quiet: true, adopt: true });
      return;
    }
    const saved = localStorage.getItem(this.key);
    if (saved) {
      try {
        const found = await api.game(saved);
        if (found.status === "playing" && (!deal || found.deal === deal)) {
          this.show(found, { adopt: true }); // paused on the server: still paused here
          this.say(t(this.paused ? "msg.paused" : "msg.welcome"));
          return;
        }
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 404) throw error;
      }
    }
    await this.newGame({ ask: false, params: deal ? { deal } : null });
  }

  /** A game in progress that a new deal would throw away. */
  midGame() {
    return Boolean(this.state && this.state.status === "playing" && this.state.plies > 0);
  }

  async newGame({ ask = true, params = null, question = "ask.new" } = {}) {
    if (ask && this.midGame() && !(await confirm(t(question), this.newButton))) return;
    this.stopPlayback(false);
    this.setPaused(false, { send: false }); // the new game starts unpaused; the old one may stay paused
    this.say(t("msg.dealing"));
    const dealing = (this.dealing = {}); // a later deal makes this one give up its retries
    let chosen;
    try {
      chosen = params ?? this.settings.params();
    } catch (error) {
      this.say(errorText(error), "error");
      return;
    }
    for (let tries = 1; ; tries += 1) {
      try {
        const state = await api.create({ game: this.game, ...chosen });
        if (this.dealing !== dealing) return;
        localStorage.setItem(this.key, state.id);
        if (!params?.deal) localStorage.setItem(`${this.key}.settings`, JSON.stringify(chosen));
        if (params && !params.deal) this.settings.restore?.(chosen); // "next rung": the settings follow
        this.show(state);
        this.say("");
        return;
      } catch (error) {
        if (this.dealing !== dealing) return;
        if (error.retryAfter == null || tries >= DEAL_TRIES) { // none: not an ApiError, or no Retry-After
          this.say(errorText(error), "error");
          return;
        }
        // Busy or too fast: the server said when to ask again, so ask then rather than leave no board.
        const seconds = Math.min(Math.max(error.retryAfter, 1), DEAL_WAIT_CAP);
        this.say(t("msg.retrying", { seconds }), "error");
        await sleep(seconds * 1000);
        if (this.dealing !== dealing) return;
        this.say(t("msg.dealing"));
      }
    }
  }

  /** Same deal from the start (when the server names its deals). */
  async restart() {
    if (!this.state?.deal) return;
    await this.newGame({ params: { deal: this.state.deal }, question: "ask.restart" });
  }

  /** A size, level or layout picked in the settings deals at once, asking first in the middle of a game. */
  async settingChanged(event) {
    if (!event.target.matches?.("[data-deal]")) return;
    if (this.midGame() && !(await confirm(t("ask.change"), event.target))) {
      try {
        this.settings.restore?.(JSON.parse(localStorage.getItem(`${this.key}.settings`) || "null") ?? {});
      } catch {
        // nothing saved to go back to
      }
      return;
    }
    await this.newGame({ ask: false });
  }

  /** Draw `state`; `adopt` also takes the server's pause (a loaded game, a reload, a language switch). */
  show(state, { quiet = false, adopt = false } = {}) {
    if (state.id !== this.state?.id) {
      this.done = [];
      this.undone = [];
    }
    this.state = state;
    if (typeof state.deal === "string") {
      const address = `#/${this.game}?deal=${encodeURIComponent(state.deal)}`;
      if (location.hash !== address) history.replaceState(null, "", address); // a copied address opens this deal
    }
    this.clockBase = state.seconds;
    this.clockFrom = state.running && !this.paused ? performance.now() : null;
    this.board.dataset.gameId = state.id;
    this.board.dataset.status = state.status;
    this.board.dataset.moves = state.moves;
    this.board.dataset.plies = state.plies;
    this.movesOut.textContent = String(state.moves);
    this.spec.render(state, this);
    this.analysis.shown(state);
    if (adopt && state.status === "playing") this.setPaused(Boolean(state.paused), { send: false });
    this.buttons();
    this.tick();
    if (state.variant !== this.progressVariant || state.status === "won") this.refreshProgress();
    if (state.status === "won" && !quiet) this.won();
  }

  /**
   * The toolbar follows the game. With no board (the first deal on its way, waiting to be asked again, or
   * refused) the buttons that act on one are off; New, the settings, help and the analysis switch always work.
   */
  buttons() {
    const playing = this.state?.status === "playing";
    this.undoButton.disabled = !this.state?.can_undo || this.paused;
    this.redoButton.disabled = !playing || !this.undone.length || this.paused;
    this.hintButton.disabled = !playing || this.paused || this.hinting;
    this.solveButton.disabled = !playing && !this.playing;
    this.pauseButton.disabled = !playing;
    this.restartButton.hidden = typeof this.state?.deal !== "string";
  }

  /** Read the player's progress again: the line for this variant, and the game's own marks (ladder, levels). */
  async refreshProgress() {
    const variant = this.state.variant;
    this.progressVariant = variant;
    const progress = await progressOf(this.game);
    this.progress = progress;
    if (this.state?.variant !== variant) return;
    this.progressOut.textContent = progressLine(progress[variant]);
    this.progressOut.dataset.variant = variant;
    this.spec.decorate?.(progress, this);
  }

  /** The seconds to show: the server's count, plus the time since it answered, capped as the server caps it. */
  seconds() {
    if (this.clockFrom === null) return { seconds: this.clockBase, idle: false };
    const gap = (performance.now() - this.clockFrom) / 1000;
    return { seconds: this.clockBase + Math.min(gap, IDLE_CAP), idle: gap > IDLE_CAP };
  }

  tick() {
    if (!this.state) return;
    const { seconds, idle } = this.seconds();
    const stopped = this.paused || (idle && this.state.status === "playing");
    this.timeOut.textContent = stopped ? `${clock(seconds)} · ${t("stat.paused")}` : clock(seconds);
    this.timeOut.dataset.paused = stopped ? "1" : "";
    if (this.spec.extra) this.extraOut.textContent = this.spec.extra(this.state, seconds);
  }

  say(text, kind = "") {
    this.message.textContent = text;
    this.message.className = `message ${kind}`;
  }

  /** Run `action` after every action queued before it; a failure of one does not block the next. */
  enqueue(action) {
    this.waiting += 1;
    this.board.dataset.waiting = String(this.waiting);
    const run = this.queue.then(action).finally(() => {
      this.waiting -= 1;
      this.board.dataset.waiting = String(this.waiting);
    });
    this.queue = run.catch(() => null);
    return run;
  }

  /**
   * Send a move (or a function of the state at sending time that returns one, or null for none). A player's
   * move stops solve playback and forgets the moves to redo; the server answers the new state or an error.
   */
  move(move, { auto = false, redo = false } = {}) {
    if (!auto) this.stopPlayback();
    if (!auto && !redo) {
      this.undone = [];
      this.buttons();
    }
    return this.enqueue(async () => {
      if (!this.state || this.state.status !== "playing" || (this.paused && !auto)) return null;
      const text = typeof move === "function" ? move(this.state) : move;
      if (!text) return null;
      try {
        const state = await api.move(this.state.id, text, this.state.plies);
        this.done.push(text);
        this.show(state);
        return state;
      } catch (error) {
        await this.refused(error, text);
        return null;
      }
    });
  }

  async refused(error, move = null) {
    if (error.code === "conflict" || error.status === 409) {
      await this.reload();
      return;
    }
    if (error.status === 422 && move !== null) this.spec.illegal?.(move, error, this);
    else toast(errorText(error), "error");
    await this.reload(false);
  }

  /** Show the server's state of this game (after a refusal, or when it changed elsewhere). */
  async reload(tell = true) {
    try {
      const fresh = await api.game(this.state.id);
      const moved = fresh.plies !== this.state.plies || fresh.board !== this.state.board || fresh.status !== this.state.status;
      if (moved) {
        this.done = [];
        this.undone = [];
      }
      if (moved || Boolean(fresh.paused) !== this.paused) this.show(fresh, { adopt: true }); // paused in another tab
      if (moved && tell) this.say(t("msg.reloaded"), "notice");
    } catch {
      // offline or gone: the next action will say so
    }
  }

  undo() {
    this.stopPlayback();
    return this.enqueue(async () => {
      if (!this.state?.can_undo || this.paused) return;
      try {
        const state = await api.undo(this.state.id, this.state.plies);
        const last = this.done.pop();
        if (last !== undefined) this.undone.push(last);
        this.show(state);
      } catch (error) {
        await this.refused(error);
      }
    });
  }

  redo() {
    if (!this.undone.length) {
      this.say(t("msg.nothingToRedo"));
      return Promise.resolve(null);
    }
    return this.move(this.undone.pop(), { redo: true });
  }

  async hint() {
    if (!this.state || this.state.status !== "playing" || this.hinting || this.paused) return;
    this.hinting = true;
    this.buttons();
    this.hintButton.setAttribute("aria-busy", "true");
    this.hintButton.classList.add("working");
    this.say(t("msg.hinting"));
    const asked = this.state;
    try {
      await this.analysis.idle();
      const answer = await api.hint(asked.id);
      this.say("");
      if (answer.hint.move === null) this.say(t("msg.noHint"));
      else if (answer.board === this.state.board) this.spec.showHint(answer.hint, this);
      this.state.hints += 1;
    } catch (error) {
      this.say(errorText(error), "error");
    } finally {
      this.hinting = false;
      this.hintButton.removeAttribute("aria-busy");
      this.hintButton.classList.remove("working");
      this.buttons();
    }
  }

  /** Solve (asking first), or stop the playback under way. */
  async solve() {
    if (this.playing) {
      this.stopPlayback();
      return;
    }
    if (!this.state || this.state.status !== "playing") return;
    if (!(await confirm(t("ask.solve"), this.solveButton))) return;
    await this.setPaused(false); // the server refuses a solve while paused
    this.say(t("msg.solving"));
    let answer;
    try {
      await this.analysis.idle();
      answer = await api.solve(this.state.id);
    } catch (error) {
      this.say(errorText(error), "error");
      return;
    }
    await this.queue; // moves made before the answer land first
    const playing = { stopped: false };
    this.playing = playing;
    this.say(t(answer.optimal ? "msg.optimalSolution" : "msg.solution", { n: answer.length }));
    this.solveButton.textContent = t("btn.stop");
    this.solveButton.dataset.playing = "1";
    this.buttons();
    for (const move of answer.moves) {
      await sleep(this.spec.playbackDelay || 320);
      while (this.paused && !playing.stopped) await sleep(100);
      if (playing.stopped) break;
      if (!(await this.move(move, { auto: true }))) {
        if (!playing.stopped) this.stopPlayback();
        break;
      }
    }
    if (this.playing === playing) {
      this.playing = null;
      this.playbackEnded();
      if (this.state.status !== "won") this.say(t("msg.playbackDone"));
    }
  }

  /** Stop solve playback, if any, saying so (unless the screen is moving on anyway). */
  stopPlayback(tell = true) {
    if (!this.playing) return;
    this.playing.stopped = true;
    this.playing = null;
    this.playbackEnded();
    if (tell) this.say(t("msg.playbackStopped"), "notice");
  }

  playbackEnded() {
    this.solveButton.textContent = t("btn.solve");
    delete this.solveButton.dataset.playing;
    this.buttons();
  }

  togglePause() {
    if (!this.paused && this.state?.status !== "playing") return Promise.resolve();
    return this.setPaused(!this.paused);
  }

  /**
   * Pause hides the board and stops the clock shown at once; `send` also pauses (or resumes) the game on the
   * server, after the actions queued before it, so its clock and the Lianliankan score stand still too and a
   * reload finds it paused. Playback waits until the game resumes. Resolves when the server has answered.
   */
  setPaused(paused, { send = true } = {}) {
    if (paused === this.paused) return Promise.resolve();
    if (paused) {
      this.clockBase = this.seconds().seconds;
      this.clockFrom = null;
    } else if (this.state?.running) {
      this.clockFrom = performance.now();
    }
    this.paused = paused;
    this.board.hidden = paused;
    this.cover.hidden = !paused;
    this.pauseButton.textContent = t(paused ? "btn.resume" : "btn.pause");
    this.pauseButton.setAttribute("aria-pressed", String(paused));
    if (paused) {
      this.say(this.playing ? t("msg.playbackPaused") : t("msg.paused"));
      this.focusBeforePause = document.activeElement;
      this.cover.focus();
    } else {
      this.say(this.playing ? t("msg.playbackResumed") : "");
      const back = this.focusBeforePause;
      if (back && back !== document.body && back.isConnected) back.focus();
    }
    this.buttons();
    this.tick();
    if (!send || this.state?.status !== "playing") return Promise.resolve();
    const id = this.state.id;
    return this.enqueue(async () => {
      if (this.state?.id !== id || this.state.status !== "playing") return;
      try {
        const state = await (paused ? api.pause(id) : api.resume(id));
        if (this.state?.id === id) this.show(state, { quiet: true });
      } catch (error) {
        toast(errorText(error), "error");
      }
    });
  }

  showHelp() {
    dialog(t("btn.help"), el("div", { class: "help-text" }, help(this.game).map((p) => el("p", { text: p }))), [[t("btn.close"), "close"]], {
      kind: "help",
      fallback: this.newButton,
    });
  }

  async won() {
    const s = this.state;
    this.stopPlayback(false);
    const rows = [[t("win.moves"), String(s.moves)]];
    const level = this.spec.levelTitle?.(s, this.catalog); // Klotski: the layout's name in the page's language
    if (level) rows.unshift([t("win.level"), level]);
    if (s.steps !== undefined) rows.push([t("win.steps"), String(s.steps)]);
    if (s.optimal !== null && s.optimal !== undefined) rows.push([t("win.optimal"), String(s.optimal)]);
    rows.push([t("win.time"), clock(s.seconds)]);
    if (s.game === "link") rows.push([t("win.score"), String(s.view.score)]);
    const record = s.record && typeof s.record === "object" ? s.record : null;
    if (record) {
      const p = record.previous;
      const before = p ? [p.fewest_moves, p.fastest_seconds == null ? null : clock(p.fastest_seconds), p.top_score].filter((x) => x !== null && x !== undefined).join(" · ") : t("win.previousNone");
      rows.push([t("win.previous"), before]);
    } else if (s.best) {
      if (s.game !== "link") rows.push([t("win.bestMoves"), orDash(s.best.fewest_moves)]);
      rows.push([t("win.bestTime"), orDash(s.best.fastest_seconds, clock)]);
      if (s.game === "link") rows.push([t("win.topScore"), orDash(s.best.top_score)]);
    }
    if (s.autoplay) rows.push([t("win.note"), t("win.autoplay")]);
    else if (s.hints || s.undos) rows.push([t("win.help"), t("win.helpCount", { h: s.hints, u: s.undos })]);
    const graph = this.analysis.win(s, rows);
    this.say(t("msg.solved"), "win");
    const body = el("div", {}, record?.new ? el("p", { class: "record", "data-record": "new", text: t("win.newRecord") }) : null, rowsList(rows), graph, this.share(s));
    const title = this.spec.winTitle ? t(this.spec.winTitle) : t("win.title");
    const next = this.spec.next?.(s, this.catalog) ?? null; // the next level or rung: {label, params}
    const nextLabel = next?.name ? `${t(next.label)}: ${next.name}` : next ? t(next.label) : null;
    const actions = [...(next ? [[nextLabel, "next"]] : []), [t("btn.new"), "new"], [t("btn.close"), "close"]];
    const answer = await dialog(title, body, actions, { kind: "win", fallback: this.newButton });
    if (answer === "new") this.newGame({ ask: false });
    if (answer === "next") this.newGame({ ask: false, params: next.params });
  }

  /** The win card's share text (the result and the deal's address) with a copy button; null without a deal. */
  share(s) {
    if (typeof s.deal !== "string") return null;
    const address = `${location.origin}${location.pathname}#/${this.game}?deal=${encodeURIComponent(s.deal)}`;
    const result = s.game === "link" ? t("share.score", { n: s.view.score }) : t("share.moves", { n: s.moves });
    const text = t("share.text", { game: t(`game.${this.game}`), result, time: clock(s.seconds), address });
    const box = el("textarea", { class: "share-text", "data-share": "", readonly: true, rows: 3, "aria-label": t("share.label") });
    box.value = text;
    const done = el("span", { class: "copied", "data-copied": "", role: "status" });
    const copy = el("button", { type: "button", "data-action": "copy", onclick: async () => {
      done.textContent = t((await copyText(text)) ? "share.copied" : "share.selectIt");
      box.select();
    } }, t("share.copy"));
    return el("div", { class: "share" }, el("label", {}, t("share.label"), box), el("div", {}, copy, " ", done));
  }

  keyDown(event) {
    if (event.ctrlKey || event.altKey || event.metaKey) return;
    if (event.target.closest?.("input, select, textarea")) return;
    if (document.querySelector(".overlay")) return;
    if (QUIET_KEYS.has(event.key)) return;
    const k = event.key.toLowerCase();
    if (k === "p") { this.togglePause(); event.preventDefault(); return; }
    if (this.paused) return;
    if (this.playing && k !== "s") this.stopPlayback();
    const actions = { u: () => this.undo(), r: () => this.redo(), h: () => this.hint(), s: () => this.solve(), n: () => this.newGame(), "?": () => this.showHelp() };
    if (actions[k]) {
      event.preventDefault();
      actions[k]();
      return;
    }
    this.spec.onKey?.(event, this);
  }
}
