// The page: a lobby, and a table played over a WebSocket. No build step: plain ES modules.
import { cardLabel, cardSvg, cardsRow } from "./cards.js";

const $ = (id) => document.getElementById(id);
const tokenKey = (id) => `tienlen-seat-${id}`;

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error || `the server answered ${res.status}`);
  return data;
}

function button(text, onClick, testid) {
  const b = document.createElement("button");
  b.textContent = text;
  if (testid) b.dataset.testid = testid;
  b.addEventListener("click", onClick);
  return b;
}

// ------------------------------------------------------------------ lobby
async function lobby() {
  $("lobby").hidden = false;
  const name = $("name");
  name.value = localStorage.getItem("tienlen-name") || "Player";
  name.addEventListener("change", () => localStorage.setItem("tienlen-name", name.value));
  const fail = (err) => { $("lobby-error").textContent = err.message; };
  const { presets } = await api("/api/presets");
  for (const p of presets) $("rules").append(new Option(p, p));
  const showPreset = async () => {
    const data = await api(`/api/presets/${$("rules").value}`);
    $("preset-text").textContent = data.toml + "\n" + data.describe;
  };
  $("rules").addEventListener("change", showPreset);
  showPreset().catch(fail);
  const create = async (quick) => {
    localStorage.setItem("tienlen-name", name.value);
    const spec = quick ? { quick: true, name: name.value, rules: $("rules").value || "pagat" } : {
      rules: $("rules").value, options: $("options").value, players: Number($("players").value),
      away_timeout: Number($("away").value), turn_timer: Number($("timer").value),
      level: $("level").value, name: name.value,
    };
    try {
      const made = await api("/api/tables", spec);
      if (made.token) localStorage.setItem(tokenKey(made.id), made.token);
      location.assign(made.invite);
    } catch (err) { fail(err); }
  };
  $("quick").addEventListener("click", () => create(true));
  $("new-table").addEventListener("click", () => { $("new-form").hidden = !$("new-form").hidden; });
  $("create").addEventListener("click", () => create(false));
  const tables = await api("/api/tables");
  const list = $("tables");
  list.replaceChildren();
  for (const t of tables) {
    const open = t.seats.filter((s) => s.kind === "empty").length;
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `/t/${t.id}`;
    a.textContent = `${t.id} · ${t.rules} · ${t.players} players · ` +
      (t.status === "open" ? `${open} seat${open === 1 ? "" : "s"} free` : `playing hand ${t.hand_no}`);
    li.append(a);
    list.append(li);
  }
  if (!tables.length) list.textContent = "No tables yet.";
}

// ------------------------------------------------------------------ table
class Table {
  constructor(id) {
    this.id = id;
    this.seq = 0;
    this.state = null;
    this.seat = null;
    this.selected = new Set();
    this.reason = "";
    this.retry = 250;
    this.recordsShown = -1;
    this.lastHint = null;
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    this.ws = new WebSocket(`${proto}://${location.host}/ws/${this.id}`);
    $("conn").textContent = "connecting…";
    this.ws.onopen = () => {
      this.retry = 250;
      $("conn").textContent = "";
      this.send({ type: "hello", token: localStorage.getItem(tokenKey(this.id)) || undefined });
    };
    this.ws.onmessage = (msg) => this.receive(JSON.parse(msg.data));
    this.ws.onclose = () => {
      $("conn").textContent = "reconnecting…";
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 2000);
    };
  }

  send(cmd) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      this.showReason("not connected: wait a moment");
      return;
    }
    this.seq += 1;
    this.ws.send(JSON.stringify({ ...cmd, seq: this.seq }));
  }

  act(move) {
    if (!this.state) return;
    this.send({ type: "play", version: this.state.version, move });
  }

  receive(ev) {
    if (ev.type === "welcome") {
      this.seat = ev.seat;
      if (ev.token) localStorage.setItem(tokenKey(this.id), ev.token);
    } else if (ev.type === "state") {
      const before = this.state;
      this.state = ev;
      if (!before || before.version !== ev.version) {
        this.selected.clear();
        this.reason = "";
        this.lastHint = null;
      }
      this.render();
    } else if (ev.type === "error") {
      this.showReason(ev.reason);
    } else if (ev.type === "hint") {
      this.showHint(ev.move);
    }
  }

  showReason(text) {
    this.reason = text;
    $("reason").textContent = text;
    $("status").textContent = `Not allowed: ${text}`;
    $("status").classList.add("refused");
  }

  showHint(move) {
    this.lastHint = move;
    if (move === "pass") {
      $("status").textContent = "Hint: pass";
      return;
    }
    this.selected.clear();
    const hand = this.state.view.hand;
    for (const card of move.split(" ")) {
      const i = hand.findIndex((c, k) => c === card && !this.selected.has(k));
      if (i >= 0) this.selected.add(i);
    }
    this.renderHand();
    $("status").textContent = `Hint: ${move}`;
  }

  names() { return this.state.info.seats.map((s) => s.name || `Seat ${s.seat + 1}`); }

  render() {
    const { info, view } = this.state;
    $("table-id").textContent = info.id;
    $("rules-name").textContent = `${info.rules}${Object.keys(info.options).length ? " (changed)" : ""}`;
    const link = `${location.origin}/t/${info.id}`;
    $("invite").href = link;
    $("invite").textContent = link;
    const open = info.status === "open";
    $("setup").hidden = !open;
    $("join").hidden = this.seat !== null;
    $("join-name").hidden = this.seat !== null;
    $("add-bot").hidden = this.seat === null;
    $("start").hidden = this.seat === null;
    this.renderSeats();
    this.renderScores();
    this.renderRecords();
    const playing = view !== null;
    for (const id of ["play", "pass", "hint"]) $(id).hidden = !playing || this.seat === null || view.is_over;
    $("next-hand").hidden = !(playing && view.is_over && this.seat !== null);
    $("reason").textContent = this.reason;
    if (!playing) {
      $("status").textContent = open ? "Waiting for players: join, add bots, then start." : "";
      $("hand").replaceChildren();
      $("table-play").replaceChildren();
      $("table-by").textContent = "";
      $("history").replaceChildren();
      $("decisions").replaceChildren();
      return;
    }
    const names = this.names();
    $("table-play").replaceChildren(view.table ? cardsRow(view.table, "big") : "");
    $("table-by").textContent = view.table ? `to beat, played by ${names[view.table_seat]}` +
      (view.stacking ? " (stacking)" : "") : (view.is_over ? "" : "the table is empty: a new lead");
    const status = $("status");
    status.classList.remove("refused");
    status.textContent = this.statusText(view, names);
    this.renderHand();
    this.renderDecisions(view, names);
    const hist = $("history");
    hist.replaceChildren();
    for (const [seat, text] of view.history) {
      const li = document.createElement("li");
      li.append(`${names[seat]}: `);
      if (/^([2-9TJQKA][scdh] ?)+$/.test(text)) li.append(cardsRow(text));
      else li.append(text);
      hist.append(li);
    }
    hist.scrollTop = hist.scrollHeight;
  }

  statusText(view, names) {
    if (view.is_over) {
      const order = view.finish_order.map((s) => names[s]).join(", ");
      const units = view.scores.map((u, s) => `${names[s]} ${u >= 0 ? "+" : ""}${u}`).join(", ");
      const instant = view.instant_win ? ` Instant win: ${view.instant_win}.` : "";
      return `Hand over. ${names[view.finish_order[0]]} wins.${instant} Finish: ${order}. Units: ${units}.`;
    }
    if (view.prompt && view.turn === this.seat) return view.prompt;
    if (view.turn === null) return "";
    const who = view.turn === this.seat ? "Your turn" : `${names[view.turn]}'s turn`;
    const phase = view.phase === "play" ? "" : ` (${view.phase})`;
    const chop = view.prompt && view.turn !== this.seat ? ` — ${view.prompt}` : "";
    return `${who}${phase}${chop}`;
  }

  renderSeats() {
    const { info, view } = this.state;
    const box = $("seats");
    box.replaceChildren();
    for (const s of info.seats) {
      const div = document.createElement("div");
      div.className = "seat";
      div.dataset.testid = "seat";
      div.dataset.seat = s.seat;
      if (view && view.turn === s.seat) div.classList.add("turn");
      if (s.seat === this.seat) div.classList.add("me");
      const name = document.createElement("b");
      name.textContent = s.kind === "empty" ? "(empty)" : s.name + (s.seat === this.seat ? " (you)" : "");
      div.append(name);
      const bits = [];
      if (s.kind === "bot") bits.push(`bot · ${s.level}`);
      if (s.kind === "human") bits.push(s.connected ? "here" : "away");
      if (s.bot_playing) bits.push("a bot plays for now");
      if (view) {
        bits.push(`${view.counts[s.seat]} card${view.counts[s.seat] === 1 ? "" : "s"}`);
        if (view.passed[s.seat]) bits.push("passed");
        if (view.finish_order.includes(s.seat)) bits.push(`out #${view.finish_order.indexOf(s.seat) + 1}`);
        if (view.dealer === s.seat) bits.push("dealer");
      }
      const small = document.createElement("small");
      small.textContent = bits.join(" · ");
      div.append(small);
      box.append(div);
    }
  }

  renderHand() {
    const view = this.state.view;
    const hand = $("hand");
    hand.replaceChildren();
    view.hand.forEach((card, i) => {
      const b = document.createElement("button");
      b.className = "card";
      b.dataset.testid = "card";
      b.dataset.card = card;
      b.setAttribute("aria-label", cardLabel(card));
      b.setAttribute("aria-pressed", this.selected.has(i) ? "true" : "false");
      b.append(cardSvg(card));
      b.addEventListener("click", () => {
        if (this.selected.has(i)) this.selected.delete(i); else this.selected.add(i);
        b.setAttribute("aria-pressed", this.selected.has(i) ? "true" : "false");
      });
      hand.append(b);
    });
  }

  selectedText() {
    const hand = this.state.view.hand;
    return [...this.selected].sort((a, b) => a - b).map((i) => hand[i]).join(" ");
  }

  renderDecisions(view, names) {
    const box = $("decisions");
    box.replaceChildren();
    if (this.seat === null || view.is_over) return;
    for (const move of view.legal) {
      if (/^(claim|decline|done|accept|refuse)/.test(move)) {
        const label = move.replace(/^(accept|refuse) (\d)$/, (_, k, s) => `${k} ${names[Number(s)]}`);
        box.append(button(label, () => this.act(move), "decision"));
      }
    }
    const d = view.decision;
    if (!d) return;
    const needSelection = (fn) => () => {
      const cards = this.selectedText();
      if (!cards) { this.showReason("select the cards first"); return; }
      this.act(fn(cards));
    };
    if (d.kind === "offer") {
      for (const s of d.seats) box.append(button(`Offer selected to ${names[s]}`, needSelection((c) => `offer ${s} ${c}`), "decision"));
    } else if (d.kind === "answer") {
      box.append(button(`Answer ${names[d.to]} with selected (${d.count})`, needSelection((c) => `answer ${d.to} ${c}`), "decision"));
    } else if (d.kind === "return") {
      box.append(button(`Return selected (${d.count}) to ${names[d.to]}`, needSelection((c) => `return ${d.to} ${c}`), "decision"));
    }
  }

  renderScores() {
    const { info, view } = this.state;
    const names = this.names();
    const table = $("scores");
    table.replaceChildren();
    const head = table.insertRow();
    for (const h of ["", "total", "wins", ...(view && view.is_over ? ["this hand"] : [])]) {
      const th = document.createElement("th");
      th.textContent = h;
      head.append(th);
    }
    names.forEach((n, s) => {
      const row = table.insertRow();
      row.insertCell().textContent = n;
      row.insertCell().textContent = info.totals[s];
      row.insertCell().textContent = info.first_places[s];
      if (view && view.is_over) row.insertCell().textContent = view.scores[s];
    });
    const caption = table.createCaption();
    caption.textContent = info.hand_no ? `hand ${info.hand_no}` : "";
  }

  async renderRecords() {
    const n = this.state.info.records;
    if (n === this.recordsShown) return;
    this.recordsShown = n;
    const list = $("records");
    list.replaceChildren();
    $("all-records").hidden = n === 0;
    $("all-records").href = `/api/tables/${this.id}/record.toml`;
    if (!n) return;
    const records = await api(`/api/tables/${this.id}/records`);
    for (const r of records) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = r.url;
      a.textContent = `Hand ${r.hand} (TOML)`;
      a.dataset.testid = "record";
      li.append(a, " ", button("Replay", () => this.replay(r.hand), "replay-hand"));
      list.append(li);
    }
  }

  async replay(hand) {
    const data = await api(`/api/tables/${this.id}/records/${hand}/replay`);
    const panel = $("replay");
    panel.hidden = false;
    $("replay-title").textContent = `hand ${hand}`;
    const slider = $("replay-step");
    slider.max = data.steps.length - 1;
    slider.value = 0;
    const show = () => {
      const step = data.steps[Number(slider.value)];
      $("replay-last").textContent = `${slider.value}/${slider.max} · ${step.last || "dealt"}` +
        (step.table ? ` · to beat: ${step.table}` : "");
      const hands = $("replay-hands");
      hands.replaceChildren();
      step.hands.forEach((h, s) => {
        const div = document.createElement("div");
        div.append(`${data.names[s]}${step.turn === s ? " ◀" : ""} `, cardsRow(h.join(" ")));
        hands.append(div);
      });
    };
    slider.oninput = show;
    show();
    panel.scrollIntoView();
  }
}

function table(id) {
  $("room").hidden = false;
  const t = new Table(id);
  window.tienlenTable = t;
  $("join").addEventListener("click", () => t.send({ type: "join", name: $("join-name").value || "Player" }));
  $("join-name").value = localStorage.getItem("tienlen-name") || "Player";
  $("add-bot").addEventListener("click", () => t.send({ type: "add_bot" }));
  $("start").addEventListener("click", () => t.send({ type: "start" }));
  $("play").addEventListener("click", () => {
    const cards = t.selectedText();
    if (!cards) { t.showReason("select the cards to play first (or pass)"); return; }
    t.act(cards);
  });
  $("pass").addEventListener("click", () => t.act("pass"));
  $("hint").addEventListener("click", () => t.send({ type: "hint" }));
  $("next-hand").addEventListener("click", () => t.send({ type: "next_hand", version: t.state.version }));
  $("copy").addEventListener("click", () => navigator.clipboard?.writeText($("invite").href));
  $("replay-close").addEventListener("click", () => { $("replay").hidden = true; });
  t.connect();
}

const match = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)$/);
if (match) table(match[1]); else lobby().catch((err) => { $("lobby-error").textContent = err.message; });
