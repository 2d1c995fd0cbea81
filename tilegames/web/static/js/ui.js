// Small DOM helpers shared by the screens: elements, SVG, toasts, time formatting, dialogs.

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

export function dialog(title, rows, actions) {
  const close = () => overlay.remove();
  const overlay = el(
    "div",
    { class: "overlay", role: "dialog", "aria-modal": "true", "aria-label": title },
    el(
      "div",
      { class: "card win" },
      el("h2", { text: title }),
      el("dl", {}, rows.map(([k, v]) => [el("dt", { text: k }), el("dd", { text: v })])),
      el(
        "div",
        { class: "actions" },
        actions.map(([label, fn]) => el("button", { type: "button", onclick: () => { close(); fn?.(); } }, label)),
      ),
    ),
  );
  document.body.append(overlay);
  overlay.querySelector("button")?.focus();
  return close;
}
