// Progress: the player's ✓ (solved) and ★ (solved with no help in the optimal number of moves) per variant,
// the Klotski level screen (cards, easiest first), the sliding-puzzle ladder and "next" on the win card.

import { api } from "./api.js";
import { lang, t } from "./i18n.js";
import { dialog, el } from "./ui.js";

/** The player's progress in `game`, by variant ({} when it cannot be read). */
export async function progressOf(game) {
  try {
    const { progress } = await api.progress(game);
    return Object.fromEntries(progress.map((p) => [p.variant, p]));
  } catch {
    return {};
  }
}

/** "✓", "✓★" or "" for a progress entry. */
export const marks = (entry) => (entry?.solved ? "✓" : "") + (entry?.star ? "★" : "");

/** One line on the game screen about the current variant: solved, star, the player's bests. */
export function progressLine(entry) {
  if (!entry?.solved) return t("progress.none");
  const parts = [t("progress.solved", { n: entry.solved })];
  if (entry.star) parts.push(t("progress.star"));
  if (entry.fewest_moves !== null && entry.fewest_moves !== undefined) parts.push(t("progress.moves", { n: entry.fewest_moves }));
  if (entry.top_score !== null && entry.top_score !== undefined) parts.push(t("progress.score", { n: entry.top_score }));
  return parts.join(" · ");
}

/** A level's name in the page's language: 横刀立马 or "Blade Drawn, Horse Reined"; "Level 37" / "第 37 关". */
export function levelName(level) {
  if (level.kind === "pack") return t("label.level", { n: level.name.replace(/\D/g, "") });
  return lang() === "zh" ? level.name : level.english || level.alias;
}

/** The level a game is on (its variant is the level's Chinese name or "Level 37"), or null. */
export const levelOf = (levels, variant) => levels.find((l) => l.name === variant) ?? null;

/** The Klotski level screen: every level as a card (name, optimal length, ✓, ★), easiest first. Resolves with
 * the level chosen (or null). */
export async function levelScreen(levels, fallback) {
  const done = await progressOf("klotski");
  let chosen = null;
  const cards = levels.map((level) => {
    const entry = done[level.name];
    return el("button", { type: "button", class: `level-card ${level.kind}`, "data-level": level.name,
      "data-solved": entry?.solved ? "1" : "", "data-star": entry?.star ? "1" : "",
      onclick: (event) => { chosen = level; event.target.closest(".overlay").querySelector("[data-dialog-action=close]").click(); } },
      el("strong", { text: levelName(level) }),
      // In English the Chinese name stays beside the translation, as the generals keep theirs.
      level.kind === "named" && lang() !== "zh" ? el("span", { class: "zh-name", lang: "zh-CN", text: level.name }) : null,
      el("span", { class: "optimal", text: level.optimal === null ? t("levels.unsolvable") : t("levels.optimal", { n: level.optimal }) }),
      el("span", { class: "marks", "aria-label": entry?.star ? t("progress.star") : entry?.solved ? t("progress.solved", { n: entry.solved }) : "", text: marks(entry) || " " }));
  });
  const solved = levels.filter((l) => done[l.name]?.solved).length;
  const body = el("div", {}, el("p", { text: t("levels.count", { n: solved, of: levels.length }) }), el("div", { class: "level-grid", "data-levels": "" }, cards));
  const closed = dialog(t("levels.title"), body, [[t("btn.close"), "close"]], { kind: "levels", fallback });
  (cards.find((card) => !card.dataset.solved) ?? cards[0])?.focus(); // start at the first level not yet solved
  await closed;
  return chosen;
}

/**
 * Lianliankan progress by size and gravity, from the progress table's variants ("14x6 k21 gravity"): whether
 * any game of that size and gravity was cleared, and the top score at any number of kinds (with those kinds).
 * Keyed "14x6" or "14x6 gravity".
 */
export function linkProgress(progress) {
  const out = {};
  for (const [variant, entry] of Object.entries(progress)) {
    const found = /^(\d+x\d+) k(\d+)( gravity)?$/.exec(variant);
    if (!found || !entry.solved) continue;
    const key = found[1] + (found[3] ?? "");
    const seen = (out[key] ??= { solved: 0, top_score: null, kinds: null });
    seen.solved += entry.solved;
    if (entry.top_score !== null && (seen.top_score === null || entry.top_score > seen.top_score)) {
      seen.top_score = entry.top_score;
      seen.kinds = Number(found[2]);
    }
  }
  return out;
}

/**
 * The Lianliankan size screen: every size offered, without and with gravity, as a button with ✓ when cleared and
 * the best score. Resolves with the choice ({size: "14x6", gravity: bool}) or null.
 */
export async function sizeScreen(sizes, fallback) {
  const done = linkProgress(await progressOf("link"));
  const cells = (size) => size.split("x").reduce((a, b) => a * b, 1);
  const ordered = [...sizes].sort((a, b) => cells(a) - cells(b));
  let chosen = null;
  const buttons = [];
  const card = (size, gravity) => {
    const entry = done[size + (gravity ? " gravity" : "")];
    const shown = size.replace("x", "×");
    const mode = t(gravity ? "sizes.gravity" : "sizes.plain");
    const best = entry?.top_score === null || entry?.top_score === undefined ? null : t("sizes.best", { s: entry.top_score, k: entry.kinds });
    const said = [shown, mode, entry ? t("sizes.cleared") : t("sizes.none"), best].filter(Boolean).join(", ");
    const button = el("button", { type: "button", class: "size-card", "data-size": size, "data-gravity": gravity ? "1" : "",
      "data-solved": entry ? "1" : "", "data-best": best === null ? "" : String(entry.top_score), "aria-label": said,
      onclick: (event) => { chosen = { size, gravity }; event.target.closest(".overlay").querySelector("[data-dialog-action=close]").click(); } },
      el("span", { class: "marks", "aria-hidden": "true", text: entry ? "✓" : " " }),
      el("span", { class: "top-score", "aria-hidden": "true", text: best ?? t("sizes.none") }));
    buttons.push(button);
    return el("td", {}, button);
  };
  const table = el("table", { class: "size-grid", "data-sizes": "" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("set.size") }), el("th", { scope: "col", text: t("sizes.plain") }), el("th", { scope: "col", text: t("sizes.gravity") }))),
    el("tbody", {}, ordered.map((size) => el("tr", {}, el("th", { scope: "row", text: size.replace("x", "×") }), card(size, false), card(size, true)))));
  const cleared = ordered.reduce((n, size) => n + (done[size] ? 1 : 0) + (done[`${size} gravity`] ? 1 : 0), 0);
  const body = el("div", {}, el("p", { text: t("sizes.count", { n: cleared, of: 2 * ordered.length }) }), table);
  const closed = dialog(t("sizes.title"), body, [[t("btn.close"), "close"]], { kind: "sizes", fallback });
  (buttons.find((b) => !b.dataset.solved) ?? buttons[0])?.focus(); // start at the first size not yet cleared
  await closed;
  return chosen;
}

/** The next level after `variant` (the Klotski levels in order), or null. */
export function nextLevel(levels, variant) {
  const at = levels.findIndex((l) => l.name === variant);
  return at >= 0 && at + 1 < levels.length ? levels[at + 1] : null;
}
