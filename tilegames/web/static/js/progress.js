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

/** The next level after `variant` (the Klotski levels in order), or null. */
export function nextLevel(levels, variant) {
  const at = levels.findIndex((l) => l.name === variant);
  return at >= 0 && at + 1 < levels.length ? levels[at + 1] : null;
}
