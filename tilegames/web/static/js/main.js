// The page: a home screen with the three games and the best results, and one screen per game (#/slide ...).

import { api } from "./api.js";
import { GameScreen } from "./game.js";
import { applyLang, errorText, lang, setLang, t } from "./i18n.js";
import { clock, el, orDash } from "./ui.js";
import { levelName, levelOf } from "./progress.js";
import * as slide from "./slide.js";
import * as klotski from "./klotski.js";
import * as link from "./link.js";

const GAMES = { slide, klotski, link };

const app = document.getElementById("app");
let screen = null;
let catalogPromise = null;

const catalog = () => (catalogPromise ??= api.catalog());

/** The words of the fixed page (header, footer) in the current language. */
function label() {
  applyLang();
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-label]")) node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  const other = document.querySelector("[data-lang-switch]");
  other.textContent = t("lang.switch");
  other.setAttribute("lang", lang() === "zh" ? "en" : "zh-CN");
  other.setAttribute("aria-label", t("lang.label"));
}

async function home() {
  document.title = t("app.title");
  const cards = Object.keys(GAMES).map((key) =>
    el(
      "a",
      { class: `game-card ${key}`, href: `#/${key}`, "data-game": key },
      el("span", { class: "art", "aria-hidden": "true" }, GAMES[key].art()),
      el("strong", { text: t(`game.${key}`) }),
      el("span", { class: "blurb", text: t(`blurb.${key}`) }),
    ),
  );
  const daily = el("nav", { class: "daily", "aria-label": t("daily.title") }, el("h2", { text: t("daily.title") }),
    Object.keys(GAMES).map((key) => el("a", { href: `#/${key}?daily=1`, "data-daily": key, text: t(`game.${key}`) })));
  const best = el("section", { class: "best", "data-best": "" }, el("h2", { text: t("best.title") }), el("p", { text: "…" }));
  app.replaceChildren(el("section", { class: "home" }, el("h1", { class: "sr-only", text: t("app.title") }), el("div", { class: "cards" }, cards), daily, best));
  try {
    await fillBest(best);
  } finally {
    best.dataset.loaded = "1";
  }
}

/** A best entry's size or layout in words, in the page's language (the server's English `label` otherwise). */
function variantText(row, levels = []) {
  const v = row.variant;
  let m;
  const level = row.game === "klotski" ? levelOf(levels, v) : null;
  if (level) return levelName(level); // 横刀立马 / "Blade Drawn, Horse Reined", "Level 37" / "第 37 关"
  if ((m = /^daily (\d{4}-\d\d-\d\d)$/.exec(v))) return t("label.daily", { date: m[1] });
  if (row.game === "slide" && (m = /^(\d+)x(\d+)(?: d(\d+))?$/.exec(v)))
    return `${m[1]}×${m[2]}` + (m[3] === undefined ? "" : t("label.distance", { n: m[3] }));
  if (row.game === "link" && (m = /^(\d+)x(\d+) k(\d+)( gravity)?$/.exec(v)))
    return [`${m[1]}×${m[2]}`, t("label.kinds", { n: m[3] }), m[4] ? t("label.gravity") : null].filter(Boolean).join(" · ");
  if (row.game === "klotski" && (m = /^Level (\d+)$/.exec(v))) return t("label.level", { n: m[1] });
  if (v.startsWith("custom ")) return t("best.custom");
  if (typeof row.label === "string" && row.label) return row.label;
  return v.replace(/(\d)x(\d)/g, "$1×$2");
}

async function fillBest(best) {
  const title = el("h2", { text: t("best.title") });
  try {
    const [{ best: rows }, known] = await Promise.all([api.best(), catalog().catch(() => null)]);
    const levels = known?.klotski?.levels ?? [];
    if (!rows.length) {
      best.replaceChildren(title, el("p", { text: t("best.none") }));
      return;
    }
    const heads = ["best.game", "best.variant", "best.played", "best.unassisted", "best.moves", "best.fastest", "best.score"];
    best.replaceChildren(
      title,
      el(
        "table",
        {},
        el("thead", {}, el("tr", {}, heads.map((h, i) => el("th", { scope: "col", text: t(h), class: i === 2 || i === 3 ? "wide" : "" })))),
        el(
          "tbody",
          {},
          rows.map((r) =>
            el(
              "tr",
              { "data-best-row": `${r.game} ${r.variant}` },
              el("td", { text: GAMES[r.game] ? t(`game.${r.game}`) : r.game }),
              el("td", { text: variantText(r, levels), "data-label": r.label ?? "" }),
              el("td", { text: String(r.played), class: "wide" }),
              el("td", { text: String(r.unassisted), class: "wide" }),
              el("td", { text: orDash(r.fewest_moves) }),
              el("td", { text: orDash(r.fastest_seconds, clock) }),
              el("td", { text: orDash(r.top_score) }),
            ),
          ),
        ),
      ),
    );
  } catch (error) {
    best.replaceChildren(title, el("p", { text: errorText(error) }));
  }
}

async function route({ keep = null } = {}) {
  screen?.destroy();
  screen = null;
  // #/slide, #/slide?deal=slide-4x4-s42 (a shared deal), #/slide?daily=1 (today's daily puzzle)
  const [name, query = ""] = location.hash.replace(/^#\/?/, "").split("?");
  const asked = new URLSearchParams(query);
  for (const a of document.querySelectorAll("[data-nav]")) {
    a.classList.toggle("active", a.dataset.nav === name);
    if (a.dataset.nav === name) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  const game = GAMES[name];
  if (!game) return home();
  app.replaceChildren(el("p", { class: "loading", text: t("app.loading") }));
  const current = new GameScreen(app, name, game, await catalog());
  screen = current;
  document.title = `${t(`game.${name}`)} · tilegames`;
  const deal = asked.get("deal") ?? (asked.has("daily") ? `${name}-daily-${new Date().toISOString().slice(0, 10)}` : null);
  await current.start(keep?.game === name ? keep : null, deal);
}

document.querySelector("[data-lang-switch]").addEventListener("click", () => {
  const keep = screen?.state ?? null;
  setLang(lang() === "zh" ? "en" : "zh");
  label();
  route({ keep });
});

label();
window.addEventListener("hashchange", () => route());
route();
