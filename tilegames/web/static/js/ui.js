// Small DOM helpers shared by the screens: elements, SVG, toasts, time formatting, dialogs.

import { t } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  node.append(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  node.append(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
}

export function toast(message, kind = "info", ms = 2600) {
  const box = document.getElementById("toasts");
  const note = el("div", { class: `toast ${kind}`, "data-toast": kind, text: message });
  box.append(note);
  setTimeout(() => note.remove(), ms);
}

export function clock(seconds) {
  const s = Math.floor(seconds);
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A modal dialog: focus moves into it and stays there (Tab cycles), Esc closes it (answering `null`), Enter
 * presses the focused button (the first one at the start), and focus returns to where it was (or to `fallback`).
 * `body` is a node or a list of nodes; `actions` are [label, value] pairs. Resolves with the chosen value.
 */
export function dialog(title, body, actions, { kind = "", fallback = null } = {}) {
  const before = document.activeElement;
  return new Promise((resolve) => {
    const heading = el("h2", { id: `dlg-${Date.now()}`, text: title });
    const buttons = actions.map(([label, value], i) =>
      el("button", { type: "button", class: i === 0 ? "primary" : "", "data-dialog-action": String(value), onclick: () => close(value) }, label));
    const card = el("div", { class: `card ${kind}` }, heading, body, el("div", { class: "actions" }, buttons));
    const overlay = el("div", { class: "overlay", role: "dialog", "aria-modal": "true", "aria-labelledby": heading.id }, card);
    const onKey = (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        event.stopPropagation();
        close(null);
      } else if (event.key === "Tab") {
        const focusable = [...overlay.querySelectorAll("button, a[href], input, select, textarea")];
        const at = focusable.indexOf(document.activeElement);
        const next = (at + (event.shiftKey ? -1 : 1) + focusable.length) % focusable.length;
        focusable[next]?.focus();
        event.preventDefault();
      }
    };
    function close(value) {
      overlay.remove();
      document.removeEventListener("keydown", onKey, true);
      const target = before && before !== document.body && before.isConnected ? before : fallback;
      target?.focus();
      resolve(value);
    }
    document.addEventListener("keydown", onKey, true);
    document.body.append(overlay);
    buttons[0]?.focus();
  });
}

/** Ask a yes/no question; resolves true for yes. */
export async function confirm(question, fallback) {
  const answer = await dialog(t("ask.title"), el("p", { text: question }), [[t("btn.ok"), "yes"], [t("btn.cancel"), "no"]], {
    kind: "ask",
    fallback,
  });
  return answer === "yes";
}

/** Rows of a result: a definition list. */
export const rowsList = (rows) => el("dl", {}, rows.map(([k, v]) => [el("dt", { text: k }), el("dd", { text: v })]));

/** A value that may be missing (a best with no record in it): the value formatted, or "—". */
export const orDash = (value, format = String) => (value === null || value === undefined ? "—" : format(value));

/** Copy text to the clipboard (a hidden textarea when the Clipboard API is not allowed); true when it worked. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = el("textarea", { class: "sr-only", readonly: true });
    area.value = text;
    document.body.append(area);
    area.select();
    const ok = document.execCommand?.("copy") ?? false;
    area.remove();
    return ok;
  }
}
