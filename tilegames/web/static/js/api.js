// The JSON API, one function per call. Errors become ApiError with the server's code and message.

export class ApiError extends Error {
  /** `retryAfter`: the seconds the server asked to wait before the same request (its Retry-After), else null. */
  constructor(status, code, message, retryAfter = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

const PLAYER = "tilegames.player";

/** This browser's player id (no accounts): 24 random URL-safe characters, made once and kept in localStorage. */
export function player() {
  let id = localStorage.getItem(PLAYER);
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(id ?? "")) {
    const bytes = crypto.getRandomValues(new Uint8Array(18));
    id = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
    localStorage.setItem(PLAYER, id);
  }
  return id;
}

export async function call(path, { method = "GET", body } = {}) {
  const init = { method, headers: { "x-player": player() } };
  // Every write is typed JSON, with a body or without (hint, solve, pause): the server refuses others (415).
  if (method !== "GET") init.headers["content-type"] = "application/json";
  if (body !== undefined) init.body = JSON.stringify(body);
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError(0, "offline", "the server cannot be reached");
  }
  if (response.status === 204) return null;
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const err = data.error || {};
    const wait = Number.parseInt(response.headers.get("retry-after") ?? "", 10);
    const retryAfter = Number.isFinite(wait) && wait >= 0 ? wait : null;
    throw new ApiError(response.status, err.code || "error", err.message || response.statusText, retryAfter);
  }
  return data;
}

export const api = {
  catalog: () => call("/api/catalog"),
  best: (game) => call(game ? `/api/best?game=${game}` : "/api/best"),
  progress: (game) => call(game ? `/api/progress?game=${game}` : "/api/progress"),
  create: (params) => call("/api/games", { method: "POST", body: params }),
  game: (id) => call(`/api/games/${encodeURIComponent(id)}`),
  // `ply`: the game's plies when the move was chosen, so the server can refuse (409 conflict) if it moved on.
  move: (id, move, ply) => call(`/api/games/${encodeURIComponent(id)}/moves`, { method: "POST", body: { move, ply } }),
  undo: (id, ply) => call(`/api/games/${encodeURIComponent(id)}/undo`, { method: "POST", body: { ply } }),
  hint: (id) => call(`/api/games/${encodeURIComponent(id)}/hint`, { method: "POST" }),
  checkLayout: (layout) => call("/api/klotski/check", { method: "POST", body: { layout } }),
  solve: (id) => call(`/api/games/${encodeURIComponent(id)}/solve`, { method: "POST" }),
  // Pause on the server: its clock (and the Lianliankan score) stands still until resume.
  pause: (id) => call(`/api/games/${encodeURIComponent(id)}/pause`, { method: "POST" }),
  resume: (id) => call(`/api/games/${encodeURIComponent(id)}/resume`, { method: "POST" }),
};
