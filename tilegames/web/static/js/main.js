// The page: a home screen with the three games and the best results, and one screen per game (#/slide ...).

import { api } from "./api.js";
import { GameScreen } from "./game.js";
import { clock, el } from "./ui.js";
import * as slide from "./slide.js";
import * as klotski from "./klotski.js";
import * as link from "./link.js";

const GAMES = {
  slide: { spec: slide, name: "数字华容道", en: "Sliding puzzle", blurb: "Put the numbers in order. 3×3 to 8×8, or a deal of exact difficulty." },
  klotski: { spec: klotski, name: "华容道", en: "Klotski", blurb: "Lead Cao Cao (曹操) out through the gate: the classic layouts or your own." },
  link: { spec: link, name: "连连看", en: "Lianliankan", blurb: "Join two equal tiles with at most two turns until the board is clear." },
};

const app = document.getElementById("app");
let screen = null;
let catalogPromise = null;

const catalog = () => (catalogPromise ??= api.catalog());

async function home() {
  const cards = Object.entries(GAMES).map(([key, g]) =>
    el(
      "a",
      { class: `game-card ${key}`, href: `#/${key}`, "data-game": key },
      el("span", { class: "art", "aria-hidden": "true" }, g.spec.art()),
      el("strong", { text: g.name }),
      el("em", { text: g.en }),
      el("span", { class: "blurb", text: g.blurb }),
    ),
  );
  const best = el("section", { class: "best", "data-best": "" }, el("h2", { text: "Best results" }), el("p", { text: "…" }));
  app.replaceChildren(el("section", { class: "home" }, el("div", { class: "cards" }, cards), best));
  try {
    await fillBest(best);
  } finally {
    best.dataset.loaded = "1";
  }
}

async function fillBest(best) {
  try {
    const { best: rows } = await api.best();
    if (!rows.length) {
      best.replaceChildren(el("h2", { text: "Best results" }), el("p", { text: "No game finished yet." }));
      return;
    }
    best.replaceChildren(
      el("h2", { text: "Best results" }),
      el(
        "table",
        {},
        el("thead", {}, el("tr", {}, ["Game", "Size / layout", "Played", "Without help", "Fewest moves", "Fastest", "Top score"].map((h, i) => el("th", { text: h, class: i === 2 || i === 3 ? "wide" : "" })))),
        el(
          "tbody",
          {},
          rows.map((r) =>
            el(
              "tr",
              { "data-best-row": `${r.game} ${r.variant}` },
              el("td", { text: GAMES[r.game]?.name ?? r.game }),
              el("td", { text: r.variant.startsWith("custom ") ? "custom" : r.variant, title: r.variant }),
              el("td", { text: String(r.played), class: "wide" }),
              el("td", { text: String(r.unassisted), class: "wide" }),
              el("td", { text: String(r.fewest_moves) }),
              el("td", { text: clock(r.fastest_seconds) }),
              el("td", { text: r.top_score === null ? "–" : String(r.top_score) }),
            ),
          ),
        ),
      ),
    );
  } catch (error) {
    best.replaceChildren(el("h2", { text: "Best results" }), el("p", { text: error.message }));
  }
}

async function route() {
  screen?.destroy();
  screen = null;
  const name = location.hash.replace(/^#\/?/, "");
  for (const a of document.querySelectorAll("[data-nav]")) a.classList.toggle("active", a.dataset.nav === name);
  const game = GAMES[name];
  if (!game) return home();
  app.replaceChildren(el("p", { class: "loading", text: "Loading…" }));
  const current = new GameScreen(app, name, game.spec, await catalog());
  screen = current;
  document.title = `${game.name} · tilegames`;
  await current.start();
}

window.addEventListener("hashchange", route);
route();
