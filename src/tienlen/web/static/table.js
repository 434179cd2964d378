// One table: the felt with its seats, the play to beat, your hand and its actions, the end of a
// hand, the history, the scores and the records; played over the table's WebSocket.
import { cardsRow, playLabel, isCards } from "./cards.js";
import { $, h, keepFocus, plural } from "./dom.js";
import { placesOf, renderEnd } from "./endpanel.js";
import { Hand } from "./hand.js";
import { renderHistory } from "./history.js";
import { levelKey } from "./lobby.js";
import { api, Connection, tokenKey } from "./net.js";
import { renderSeats, seatPosition, tickCountdown } from "./seats.js";

const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

function button(text, onClick, testid) {
  return h("button", { type: "button", testid, text, onclick: onClick });
}

/** Make a button unusable for a reason shown on hover and read by screen readers. */
function setEnabled(btn, enabled, reason) {
  btn.setAttribute("aria-disabled", enabled ? "false" : "true");
  btn.title = enabled ? "" : reason;
  const why = $(`${btn.id}-why`);
  if (why) why.textContent = enabled ? "" : reason;
}

const usable = (btn) => !btn.hidden && btn.getAttribute("aria-disabled") !== "true";

export class Table {
  constructor(id) {
    this.id = id;
    this.state = null;
    this.seat = null;
    this.reason = "";
    this.recordsShown = -1;
    this.lastHint = null;
    this.offset = 0;  // server clock minus this clock, in seconds (estimated)
    this.offsetKnown = false;
    this.conn = new Connection(id, (ev) => this.receive(ev), (s) => this.connStatus(s));
    this.hand = new Hand($("hand"), () => this.renderActions());
  }

  get ws() { return this.conn.ws; }
  get selected() { return this.hand.selected; }

  async start() {
    try {
      await api(`/api/tables/${this.id}`);
    } catch (err) {
      if (err.status === 404 || err.status === 410) { this.missing(err.status === 410 ? err.message : ""); return; }
    }
    $("room").hidden = false;
    this.conn.connect();
    this.timer = setInterval(() => this.tick(), 250);
  }

  missing(why = "") {
    this.conn.gone = true;
    $("room").hidden = true;
    $("missing").hidden = false;
    $("missing-id").textContent = this.id;
    if (why) $("missing-why").textContent = why.charAt(0).toUpperCase() + why.slice(1) + ".";
    document.title = "Tiến Lên · no such table";
    $("conn").textContent = "";
    clearInterval(this.timer);
  }

  connStatus(s) {
    const text = { connecting: "connecting…", reconnecting: "reconnecting…", open: "", gone: "" }[s];
    $("conn").textContent = text;
    $("conn").classList.toggle("bad", s === "reconnecting");
    if (s === "gone") this.missing(this.goneWhy);
  }

  send(cmd) {
    if (!this.conn.send(cmd)) this.showReason("not connected: wait a moment");
  }

  act(move) {
    if (!this.state) return;
    this.send({ type: "play", version: this.state.version, move });
  }

  receive(ev) {
    if (ev.type === "welcome") {
      const was = this.seat;
      this.seat = ev.seat;
      if (ev.token) localStorage.setItem(tokenKey(this.id), ev.token);
      if (ev.seat === null && was !== null) localStorage.removeItem(tokenKey(this.id));
      if (this.state) this.render(this.state);
    } else if (ev.type === "state") {
      const before = this.state;
      this.state = ev;
      if (!before || before.version !== ev.version) {
        this.reason = "";
        this.lastHint = null;
      }
      if (before && before.version < ev.version && ev.at) {
        // a change made just now: its server time, less our clock, is at most the clocks' offset
        // (the event took some time to arrive); keep the largest such estimate
        const sample = ev.at - Date.now() / 1000;
        this.offset = this.offsetKnown ? Math.max(this.offset, sample) : sample;
        this.offsetKnown = true;
      }
      this.render(before);
    } else if (ev.type === "error") {
      if (ev.code === "not_found" || (/^no table /.test(ev.reason) && !this.state)) {
        this.conn.gone = true;
        this.goneWhy = /closed/.test(ev.reason) ? ev.reason : "";
        return;
      }
      const limited = ev.code === "rate_limited" && !/too many/i.test(ev.reason);
      this.showReason(limited ? `too many requests: ${ev.reason}` : ev.reason);
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
    this.hand.select(move.split(" "));
    $("status").textContent = `Hint: ${move}`;
  }

  names() { return this.state.info.seats.map((s) => s.name || `Seat ${s.seat + 1}`); }

  // ------------------------------------------------------------------ drawing
  render(before) {
    const { info, view } = this.state;
    const names = this.names();
    const open = info.status === "open";
    const title = info.name || `Table ${info.id}`;
    const yours = view && !view.is_over && this.seat !== null && view.turn === this.seat;
    document.title = `${yours ? "● Your turn · " : ""}Tiến Lên · ${title}`;  // seen from another tab
    $("table-title").textContent = title;
    $("table-id").textContent = info.id;
    $("rules-name").textContent = `${info.rules}${Object.keys(info.options).length ? " (changed)" : ""}`;
    $("hand-no").textContent = info.hand_no ? `hand ${info.hand_no}` : "not started";
    const extra = [info.private ? "private" : "", info.seed !== undefined && info.seed !== null ? `practice deal, seed ${info.seed}` : "",
      info.turn_timer ? `${info.turn_timer} s a turn` : "", info.paused ? "paused: nobody is here" : ""].filter(Boolean);
    $("table-extra").textContent = extra.map((e) => ` · ${e}`).join("");
    const link = `${location.origin}/t/${info.id}`;
    $("invite").href = link;
    $("invite").textContent = link.replace(/^https?:\/\//, "");
    const hostFeatures = "host_seat" in info;
    $("leave").hidden = !(hostFeatures && this.seat !== null);

    // setup: join, bots, start
    $("setup").hidden = !open;
    $("join").hidden = this.seat !== null;
    $("join-name").closest("label").hidden = this.seat !== null;
    $("add-bot").hidden = this.seat === null;
    $("start").hidden = this.seat === null;
    const empty = info.seats.filter((s) => s.kind === "empty").length;
    $("setup-note").textContent = open ? (empty ? `${plural(empty, "seat")} free: invite a friend or add bots, then start.`
      : "Every seat is taken: start when you are ready.") : "";
    if (open) setEnabled($("start"), empty === 0, `${plural(empty, "seat")} still empty`);
    if (open) setEnabled($("add-bot"), empty > 0, "every seat is taken");

    keepFocus($("seats"), () => renderSeats($("seats"), {
      info, view, me: this.seat, onRemove: (seat) => this.send({ type: "remove_seat", seat }),
      onSit: this.seat === null ? (seat) => this.send({ type: "join", seat, name: $("join-name").value || "Player" }) : null,
    }));
    this.renderScores();
    this.renderRecords();
    $("reason").textContent = this.reason;
    const playing = view !== null;
    $("room").classList.toggle("playing", playing);
    $("room").classList.toggle("seated", this.seat !== null);
    $("room").classList.toggle("over", playing && view.is_over);
    $("felt").dataset.players = String(info.players);
    $("dock").hidden = !playing;
    $("end").hidden = !(playing && view.is_over);
    $("trick").hidden = !playing || view.is_over;
    if (!playing) {
      $("status").textContent = open ? "Waiting for players: join, add bots, then start." : "";
      this.hand.show([]);
      $("table-play").replaceChildren();
      $("table-by").textContent = "";
      $("history").replaceChildren();
      $("decisions").replaceChildren();
      this.tick();
      return;
    }
    this.renderTrick(before && before.view, view, names);
    const status = $("status");
    status.classList.remove("refused");
    status.textContent = this.statusText(view, names);
    this.hand.show(view.hand);
    this.renderActions();
    keepFocus($("decisions"), () => this.renderDecisions(view, names));
    renderHistory($("history"), view, names);
    if (view.is_over) {
      renderEnd($("end"), view, names, this.seat);
      $("next-hand").hidden = this.seat === null;
      if (!(before && before.view && before.view.is_over) && this.hand.box.contains(document.activeElement)) {
        $("next-hand").focus();
      }
    }
    this.tick();
  }

  renderTrick(prev, view, names) {
    const play = $("table-play");
    const by = $("table-by");
    const changed = !prev || prev.table !== view.table || prev.table_seat !== view.table_seat;
    if (view.table) {
      if (changed) {
        const row = cardsRow(view.table, "big");
        play.replaceChildren(row);
        if (prev && !reducedMotion()) this.land(row, view.table_seat);
      }
      by.replaceChildren(h("span", { text: "to beat · played by " }),
        h("b", { text: view.table_seat === this.seat ? "you" : names[view.table_seat] }),
        view.stacking ? h("span", { text: " (stacking)" }) : "");
      play.setAttribute("aria-label", `To beat: ${playLabel(view.table)}, played by ${names[view.table_seat]}`);
      $("trick").classList.remove("cleared");
    } else {
      play.replaceChildren();
      play.removeAttribute("aria-label");
      let won = null;
      for (let i = view.history.length - 1; i >= 0; i--) if (isCards(view.history[i][1])) { won = view.history[i][0]; break; }
      const leads = view.turn;
      if (view.phase !== "play") {
        const phases = { trade: "Trading before the play", claim: "Instant-win claims before the play",
          return: "Cards given back before the play" };
        by.textContent = phases[view.phase] || `The ${view.phase} phase`;
      } else if (won === null) {
        by.textContent = leads === null ? "" : `${leads === this.seat ? "You lead" : `${names[leads]} leads`} the first round`;
      } else {
        const who = won === this.seat ? "You" : names[won];
        by.textContent = `${who} won the round · ${leads === this.seat ? "your lead" : `${names[leads]} leads`}`;
      }
      if (prev && prev.table && !reducedMotion()) {
        $("trick").classList.remove("cleared");
        void $("trick").offsetWidth;
        $("trick").classList.add("cleared");
      }
    }
  }

  /** A short motion from the seat that played to the middle of the felt. */
  land(row, seat) {
    const n = this.state.info.players;
    const r = ((seat - (this.seat ?? 0)) % n + n) % n;
    const [x, y] = seatPosition(r, n);
    const felt = $("felt").getBoundingClientRect();
    row.style.setProperty("--dx", `${((x - 50) / 100) * felt.width * 0.7}px`);
    row.style.setProperty("--dy", `${((y - 50) / 100) * felt.height * 0.7}px`);
    row.classList.add("landing");
  }

  statusText(view, names) {
    if (view.is_over) {
      const instant = view.instant_win ? ` Instant win: ${view.instant_win}.` : "";
      const mine = this.seat !== null ? ` You ${view.scores[this.seat] >= 0 ? "win" : "lose"} ${Math.abs(view.scores[this.seat])}.` : "";
      return `Hand over. ${names[placesOf(view)[0]]} wins.${instant}${mine}`;
    }
    if (view.prompt && view.turn === this.seat) return view.prompt;
    if (view.turn === null) return "";
    const who = view.turn === this.seat ? "Your turn" : `${names[view.turn]}'s turn`;
    const phase = view.phase === "play" ? "" : ` (${view.phase})`;
    const chop = view.prompt && view.turn !== this.seat ? ` — ${view.prompt}` : "";
    const lead = view.turn === this.seat && !view.table && view.phase === "play" ? ": lead anything" : "";
    return `${who}${phase}${lead}${chop}`;
  }

  renderActions() {
    const view = this.state && this.state.view;
    const seated = this.seat !== null;
    // before the play (claims, trades) the decisions' buttons stand in for Play and Pass
    const off = !view || !seated || view.is_over || view.phase !== "play";
    for (const id of ["play", "pass", "hint"]) $(id).hidden = off;
    $("keys").hidden = off;
    if (off) return;
    const names = this.names();
    const mine = view.turn === this.seat;
    const someone = view.turn === null ? "" : names[view.turn];
    const notYours = `not your turn: ${someone} is playing`;
    const chop = !mine && view.phase === "play" && view.legal.length > 0;
    const canPlay = view.phase === "play" && (mine || chop);
    setEnabled($("play"), canPlay, view.phase !== "play" ? `not now: the ${view.phase} phase` : notYours);
    const canPass = mine && view.phase === "play" && (view.legal.includes("pass") || view.legal.length >= 400);
    setEnabled($("pass"), canPass, !mine ? notYours : (view.table ? "you cannot pass now" : "you lead: play anything, a lead cannot be passed"));
    setEnabled($("hint"), mine || chop, notYours);
    const count = this.hand.selected.size;
    $("play").textContent = count ? `Play ${count}` : "Play";
    $("play").setAttribute("aria-label", count ? `Play ${plural(count, "card")}: ${playLabel(this.hand.text())}` : "Play");
  }

  renderDecisions(view, names) {
    const box = $("decisions");
    box.replaceChildren();
    if (this.seat === null || view.is_over) return;
    for (const move of view.legal) {
      if (/^(claim|decline|done|accept|refuse)/.test(move)) {
        const label = move.replace(/^(accept|refuse) (\d)$/, (_, k, s) => `${k} ${names[Number(s)]}`);
        const b = button(label, () => this.act(move), "decision");
        b.dataset.key = `decision-${move}`;
        box.append(b);
      }
    }
    const d = view.decision;
    if (!d) return;
    const needSelection = (fn) => () => {
      const cards = this.hand.text();
      if (!cards) { this.showReason("select the cards first"); return; }
      this.act(fn(cards));
    };
    const add = (text, fn, key) => { const b = button(text, needSelection(fn), "decision"); b.dataset.key = key; box.append(b); };
    if (d.kind === "offer") {
      for (const s of d.seats) add(`Offer selected to ${names[s]}`, (c) => `offer ${s} ${c}`, `offer-${s}`);
    } else if (d.kind === "answer") {
      add(`Answer ${names[d.to]} with selected (${d.count})`, (c) => `answer ${d.to} ${c}`, "answer");
    } else if (d.kind === "return") {
      add(`Return selected (${d.count}) to ${names[d.to]}`, (c) => `return ${d.to} ${c}`, "return");
    }
  }

  renderScores() {
    const { info, view } = this.state;
    const names = this.names();
    const table = $("scores");
    table.replaceChildren();
    const over = view && view.is_over;
    const head = table.createTHead().insertRow();
    for (const t of ["Player", "Total", "Wins", ...(over ? ["Hand"] : [])]) head.append(h("th", { scope: "col", text: t }));
    const body = table.createTBody();
    const order = names.map((_, s) => s).sort((a, b) => info.totals[b] - info.totals[a] || a - b);
    for (const s of order) {
      const row = body.insertRow();
      if (s === this.seat) row.className = "me";
      row.append(h("th", { scope: "row", text: names[s] + (s === this.seat ? " (you)" : "") }));
      const total = info.totals[s];
      row.append(h(`td.${total > 0 ? "won" : total < 0 ? "lost" : "even"}`, { text: `${total > 0 ? "+" : ""}${total}` }));
      row.append(h("td", { text: String(info.first_places[s]) }));
      if (over) row.append(h("td", { text: `${view.scores[s] > 0 ? "+" : ""}${view.scores[s]}` }));
    }
    const caption = table.createCaption();
    caption.textContent = info.hand_no ? `after ${plural(info.records, "finished hand")}` : "no hand played yet";
  }

  async renderRecords() {
    const n = this.state.info.records;
    if (n === this.recordsShown) return;
    this.recordsShown = n;
    const list = $("records");
    list.replaceChildren();
    $("all-records").hidden = n === 0;
    $("all-records").href = `/api/tables/${this.id}/record.toml`;
    if (!n) { list.append(h("li.none", { text: "No finished hand yet." })); return; }
    const records = await api(`/api/tables/${this.id}/records`);
    list.replaceChildren(...records.map((r) => h("li", {},
      h("a", { href: r.url, testid: "record", text: `Hand ${r.hand} (TOML)` }), " ",
      h("button.small", { type: "button", testid: "replay-hand", text: "Replay", "aria-label": `Replay hand ${r.hand}`,
        onclick: () => this.replay(r.hand) }))));
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
      $("replay-hands").replaceChildren(...step.hands.map((hd, s) => h("div.replay-row", {},
        h("span.move-who", { text: `${data.names[s]}${step.turn === s ? " ◀" : ""}` }), cardsRow(hd.join(" "), "hist"))));
    };
    slider.oninput = show;
    show();
    panel.scrollIntoView({ block: "nearest" });
    slider.focus();
  }

  // ------------------------------------------------------------------ the clock
  deadline() {
    const { info, view } = this.state || {};
    if (!view || view.is_over || view.turn === null) return null;
    if ("turn_deadline" in info) return info.turn_deadline ?? null;
    const s = info.seats[view.turn];
    if (!info.turn_timer || !s || s.kind !== "human") return null;
    return this.state.at + info.turn_timer;  // a server without turn_deadline: from the last change
  }

  tick() {
    if (!this.state) return;
    const view = this.state.view;
    tickCountdown($("seats"), view ? view.turn : null, this.deadline(), this.offset);
  }

  // ------------------------------------------------------------------ input
  wire() {
    $("join").addEventListener("click", () => this.send({ type: "join", name: $("join-name").value || "Player" }));
    $("join-name").value = localStorage.getItem("tienlen-name") || "Player";
    $("join-name").addEventListener("keydown", (ev) => { if (ev.key === "Enter") $("join").click(); });
    const guard = (btn, fn) => btn.addEventListener("click", () => { if (usable(btn)) fn(); });
    guard($("add-bot"), () => {
      const level = (this.state && this.state.info.bot_level) || sessionStorage.getItem(levelKey(this.id));
      this.send(level ? { type: "add_bot", level } : { type: "add_bot" });
    });
    guard($("start"), () => this.send({ type: "start" }));
    guard($("play"), () => {
      const cards = this.hand.text();
      if (!cards) { this.showReason("select the cards to play first (or pass)"); return; }
      this.act(cards);
    });
    guard($("pass"), () => this.act("pass"));
    guard($("hint"), () => this.send({ type: "hint" }));
    $("next-hand").addEventListener("click", () => this.send({ type: "next_hand", version: this.state.version }));
    $("leave").addEventListener("click", () => {
      const started = this.state && this.state.info.status !== "open";
      if (started && !window.confirm("Leave the table? A bot plays your seat for the rest of it.")) return;
      this.send({ type: "leave" });
    });
    $("copy").addEventListener("click", async () => {
      try { await navigator.clipboard.writeText($("invite").href); $("copy").textContent = "Copied"; } catch { $("copy").textContent = "Copy failed"; }
      setTimeout(() => { $("copy").textContent = "Copy link"; }, 1500);
    });
    $("replay-close").addEventListener("click", () => { $("replay").hidden = true; });
    document.addEventListener("keydown", (ev) => this.shortcut(ev));
  }

  /** P play, X pass, H hint, N next hand, C clear the selection, / to the hand. */
  shortcut(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t instanceof HTMLElement && (t.closest("input, textarea, select, [contenteditable]"))) return;
    const keys = { p: "play", x: "pass", h: "hint", n: "next-hand" };
    const id = keys[ev.key.toLowerCase()];
    if (id && usable($(id))) { ev.preventDefault(); $(id).click(); return; }
    if (ev.key.toLowerCase() === "c") { this.hand.clear(); return; }
    if (ev.key === "/") { ev.preventDefault(); this.hand.focus(); }
  }
}

export function table(id) {
  const t = new Table(id);
  window.tienlenTable = t;
  t.wire();
  t.start();
  return t;
}
