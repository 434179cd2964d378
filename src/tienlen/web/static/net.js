import { lang, t } from "./i18n.js";

// The server: its REST API and one table's WebSocket, reconnecting until the table is known gone.
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

/** A table's connection: ``onEvent`` gets every server event, ``onStatus`` the connection's state
 * ("connecting", "open", "reconnecting", "gone"). */
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
