import { lang, t } from "./i18n.js";

// The server: its REST API and one table's WebSocket, reconnecting until the table is known gone
// (or the server refused this page: 4403).
export class HttpError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

/** This browser's player key: who the tables it creates are counted against (many players may
 * share one address), until accounts come. Random, kept in the browser. */
function playerKey() {
  let key = localStorage.getItem("tienlen-player");
  if (!key) {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    key = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem("tienlen-player", key);
  }
  return key;
}

export async function api(path, body) {
  const headers = { "Accept-Language": lang };
  const opts = body === undefined ? { headers } : {
    method: "POST", headers: { ...headers, "Content-Type": "application/json", "X-Tienlen-Player": playerKey() },
    body: JSON.stringify(body),
  };
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {  // a problem (RFC 9457): its detail is said in the page's language
    let msg = data.detail || t("web.error.status", { status: res.status });
    if (res.status === 429 && !data.detail) msg = t("web.error.too_many", { reason: msg });
    throw new HttpError(msg, res.status);
  }
  return data;
}

export const tokenKey = (id) => `tienlen-seat-${id}`;

/** The state after a ``delta`` event (protocol.py's Delta; deltas.py's apply_delta is the same):
 * a new object, the one held left as it was (the page compares the two); null when the delta
 * is for a version not held (then the page asks for the whole state again: ``sync``). */
export function applyDelta(state, delta) {
  if (!state || state.version !== delta.base) return null;
  const out = { ...state, seq: delta.seq, version: delta.version, at: delta.at };
  for (const part of ["info", "view"]) {
    const changed = delta[part];
    if (!changed) continue;
    const held = state[part];
    if (!held) return null;
    const next = { ...held, ...(changed.set || {}) };
    for (const [name, tail] of Object.entries(changed.tail || {})) next[name] = [...held[name].slice(0, tail.keep), ...tail.add];
    out[part] = next;
  }
  return out;
}

export const REFUSED = 4403;  // the server's close code for another site's page (socket.py)

/** A table's connection: ``onEvent`` gets every server event, ``onStatus`` the connection's state
 * ("connecting", "open", "reconnecting", "gone", "refused": the server refused this page, which
 * knocking again would not change). */
export class Connection {
  constructor(tableId, onEvent, onStatus) {
    this.tableId = tableId;
    this.onEvent = onEvent;
    this.onStatus = onStatus;
    this.seq = 0;
    this.retry = 250;
    this.gone = false;
    this.ws = null;
  }

  get open() { return this.ws !== null && this.ws.readyState === WebSocket.OPEN; }

  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    // the language in the URL: the refusals sent before hello are said in it too
    const ws = new WebSocket(`${proto}://${location.host}/ws/${this.tableId}?lang=${lang}`);
    this.ws = ws;
    this.onStatus("connecting");
    ws.onopen = () => {
      this.retry = 250;
      this.onStatus("open");
      this.send({ type: "hello", token: localStorage.getItem(tokenKey(this.tableId)) || undefined, lang });
    };
    ws.onmessage = (msg) => this.onEvent(JSON.parse(msg.data));
    ws.onclose = (ev) => {
      if (ev.code === REFUSED) {  // another site's page, as the server sees it: said, not retried
        this.gone = true;
        this.onStatus("refused");
        return;
      }
      if (ev.code === 4404 || this.gone) {  // no such table: do not knock again
        this.gone = true;
        this.onStatus("gone");
        return;
      }
      this.onStatus("reconnecting");
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 2000);
    };
  }

  /** Send a command; false when not connected. */
  send(cmd) {
    if (!this.open) return false;
    this.seq += 1;
    this.ws.send(JSON.stringify({ ...cmd, seq: this.seq }));
    return true;
  }
}
