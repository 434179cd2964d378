// One table, played over its WebSocket: the state it holds, and the regions it draws it in (each
// a module that looks up its own elements once): the bar above the felt (bar.js), the seats round
// the felt (seats.js), its centre (centre.js), the setup before the first hand (setup.js), the end
// of a hand (endpanel.js), the dock with your hand and its actions (dock.js), and at the side the
// history (history.js), the talk (chat.js), the scores (scores.js) and the records (records.js).
import { mountBell, turnTitle } from "../lib/attention.js";
import { elements, keepFocus, usable } from "../lib/dom.js";
import { seatName, t, tableTitle } from "../lib/i18n.js";
import { api, applyDelta, Connection, tokenKey } from "../lib/net.js";
import { mountInvite } from "../people/friends.js";
import { openPlayerCard } from "../people/playercard.js";
import { openReport, showBanned } from "../people/moderation.js";
import { Bar } from "./bar.js";
import { Centre } from "./centre.js";
import { Chat } from "./chat.js";
import { asked, waited } from "./decision.js";
import { Dock } from "./dock.js";
import { EndPanel } from "./endpanel.js";
import { renderHistory } from "./history.js";
import { fitTable, watchLayout } from "./layout.js";
import { celebrate, chips, deal, settle, stamp } from "./motion.js";
import { newChopPayments, newPayments, paymentLine } from "./payments.js";
import { Records } from "./records.js";
import { Scores } from "./scores.js";
import { renderSeats, tickCountdown } from "./seats.js";
import { Setup } from "./setup.js";
import { stage } from "./stage.js";
import { buzz, cues, sound } from "./sound.js";

export class Table {
  constructor(id) {
    this.id = id;
    this.state = null;
    this.seat = null;
    this.reason = "";
    this.lastHint = null;
    this.hintRef = null;  // the seq of the hint asked for and not answered yet (the button thinks)
    this.offset = 0;  // server clock minus this clock, in seconds (estimated)
    this.offsetKnown = false;
    this.els = elements("room", "missing", "missing-why", "conn", "felt", "seats", "history");
    this.bar = new Bar();
    this.setup = new Setup(id);
    this.centre = new Centre();
    this.end = new EndPanel();
    this.dock = new Dock(() => this.renderActions());
    this.hand = this.dock.hand;
    this.scores = new Scores();
    this.records = new Records(id, () => ({ info: this.state ? this.state.info : null, seat: this.seat }));
    this.conn = new Connection(id, (ev) => this.receive(ev), (s) => this.connStatus(s));
    this.chat = new Chat(id, (cmd) => this.send(cmd), () => (this.state ? this.names() : []));
  }

  get ws() { return this.conn.ws; }
  get selected() { return this.hand.selected; }

  async start() {
    try {
      await api(`/api/tables/${this.id}`);
    } catch (err) {
      if (err.status === 404 || err.status === 410) { this.missing(err.status === 410 ? err.message : ""); return; }
    }
    this.els.room.hidden = false;
    // the bot levels each rules set offers, weakest first (the setup's "Add a bot" offers them)
    api("/api/presets").then((p) => {
      this.levels = p.levels || null;
      this.agent = p.agent || null;
      this.seats = p.seats || null;
      if (this.state) this.render(this.state);
    }).catch(() => {});
    // who this browser is, once known (account.js): an account is not asked its name to sit
    document.addEventListener("tienlen-me", () => { if (this.state) this.render(this.state); });
    const asked = Number(new URLSearchParams(location.search).get("replay"));  // a profile's link
    if (asked > 0) this.records.replay(asked);
    watchLayout();
    this.conn.connect();
    this.timer = setInterval(() => this.tick(), 250);
  }

  missing(why = "") {
    this.conn.gone = true;
    this.els.room.hidden = true;
    this.els.missing.hidden = false;
    this.els.missingWhy.textContent = why ? why.charAt(0).toUpperCase() + why.slice(1) + "."
      : t("web.missing.why", { id: this.id });
    document.title = t("web.title.missing");
    this.els.conn.textContent = "";
    clearInterval(this.timer);
  }

  connStatus(s) {
    const text = { connecting: t("web.conn.connecting"), reconnecting: t("web.conn.reconnecting"), open: "", gone: "",
      refused: t("web.conn.refused") }[s];
    this.els.conn.textContent = text;
    this.els.conn.classList.toggle("bad", s === "reconnecting" || s === "refused");
    if (s === "refused") this.centre.notice(text);
    if (s === "gone") this.missing(this.goneWhy);
  }

  send(cmd) {
    if (!this.conn.send(cmd)) this.showReason(t("web.error.not_connected"));
  }

  act(move) {
    if (!this.state) return;
    this.send({ type: "play", version: this.state.version, move });
  }

  receive(ev) {
    if (ev.type === "delta") {  // what changed since the state held; one not for it: all again
      const made = applyDelta(this.state, ev);
      if (made) this.receive(made);
      else if (!this.syncing) this.syncing = this.conn.send({ type: "sync" });
    } else if (ev.type === "welcome") {
      const was = this.seat;
      this.seat = ev.seat;
      this.formerSeat = ev.seat === null ? was : null;  // a "removed" event for it is about us
      if (ev.barred && !this.barred) this.centre.notice(t("web.room.barred_you"));
      this.barred = Boolean(ev.barred);  // removed or kicked by the host: we only watch
      this.back = ev.seat === null ? ev.back || [] : [];  // the seats left that we may take back
      if (ev.token) localStorage.setItem(tokenKey(this.id), ev.token);
      if (ev.seat === null && was !== null) localStorage.removeItem(tokenKey(this.id));
      this.hintRef = null;  // a new connection: the answer to an old ask does not come
      if (this.state) this.render(this.state);
    } else if (ev.type === "state") {
      const before = this.state;
      this.state = ev;
      this.syncing = false;
      if (!before || before.version !== ev.version) {
        this.reason = "";
        this.lastHint = null;
        this.dock.clearHint();
      }
      if (before && before.version < ev.version && ev.at) {
        // a change made just now: its server time, less our clock, is at most the clocks' offset
        // (the event took some time to arrive); keep the largest such estimate
        const sample = ev.at - Date.now() / 1000;
        this.offset = this.offsetKnown ? Math.max(this.offset, sample) : sample;
        this.offsetKnown = true;
      }
      this.render(before);
      const heard = cues(before && before.info.hand_no === ev.info.hand_no ? before.view : null, ev.view, this.seat);
      for (const name of heard) sound(name);
      if (heard.includes("turn")) buzz();
    } else if (ev.type === "error") {
      if (ev.ref != null && ev.ref === this.hintRef) this.hintDone();
      if (ev.code === "not_found") {  // the table closed: the server says why, in our language
        this.conn.gone = true;
        this.goneWhy = ev.reason;
        return;
      }
      if (ev.code === "banned") showBanned(ev.reason);  // shown above the felt, seated or not
      this.showReason(ev.reason);  // every reason comes in the page's language (hello, ?lang=)
    } else if (ev.type === "hint") {
      this.hintDone();
      this.lastHint = ev.move;
      this.dock.showHint(ev.move, ev.reason);
    } else if (ev.type === "timed_out") {
      this.centre.notice(ev.reason);  // what the turn timer played for us, in our language
    } else if (ev.type === "chat") {
      this.chat.receive(ev);
    } else if (ev.type === "removed") {
      const name = ev.name;
      const text = ev.how === "kicked" ? t("web.room.kicked", { name, n: ev.seat + 1 })
        : (this.seat === null && this.formerSeat === ev.seat ? t("web.room.removed_you") : t("web.room.removed", { name }));
      this.centre.notice(text);
      this.chat.note(text);
      if (ev.how === "removed") this.chat.mute(ev.seat, false);  // the seat is someone else's next
    }
  }

  /** A refusal, said where the player is looking: the dock while playing, the setup before the
   * start, above the felt for a spectator of a hand in play; and in the status line. */
  showReason(text) {
    this.reason = text;
    this.dock.say(text);
    if (this.dock.hidden && !this.setup.hidden) this.setup.showError(text);
    else if (this.dock.hidden) this.centre.notice(text);
    this.dock.refused(text);
  }

  /** Ask for a hint: the button shows it is thinking and refuses a second ask until the
   * answer (or a refusal) comes. */
  askHint() {
    if (this.hintRef !== null) return;
    this.send({ type: "hint" });
    if (!this.conn.open) return;
    this.hintRef = this.conn.seq;
    this.renderActions();
  }

  hintDone() {
    this.hintRef = null;
    this.renderActions();
  }

  names() { return this.state.info.seats.map((s) => seatName(s) || t("web.seat.numbered", { n: s.seat + 1 })); }

  // ------------------------------------------------------------------ drawing
  render(before) {
    const { info, view } = this.state;
    const names = this.names();
    const open = info.status === "open";
    const title = tableTitle(info);
    const yours = waited(asked(view, this.seat));  // asked on turn (a chop out of turn waits for nobody)
    // seen from another tab: the title says it, flashes while the tab is hidden, may notify
    turnTitle(yours, t("web.title.table", { title }), t("web.title.your_turn", { title }), `${info.id}:${info.hand_no}:${this.state.version}`);
    this.bar.render(info, title, this.seat !== null);
    stage().call(yours ? t("web.stage.your_turn") : "");  // a replay or review open over the table
    this.setup.render({ info, me: this.seat, barred: this.barred, levels: this.levels, agent: this.agent, seats: this.seats, reason: this.reason });
    this.renderSeats(info, view);
    this.chat.render(info, this.seat);
    this.scores.render(info, view, names, this.seat);
    this.renderRecords();
    this.dock.say(this.reason);
    const playing = view !== null;
    this.els.room.classList.toggle("playing", playing);
    this.els.room.classList.toggle("seated", this.seat !== null);
    this.els.room.classList.toggle("over", playing && view.is_over);
    this.els.felt.dataset.players = String(info.players);
    this.dock.show(playing);
    fitTable();  // a phone: the felt above the dock, the setup below the felt
    this.end.show(playing && view.is_over);
    this.centre.show(playing && !view.is_over);
    if (!playing) {
      this.dock.renderIdle(open);
      this.centre.clear();
      this.els.history.replaceChildren();
      this.tick();
      return;
    }
    this.centre.renderTrick(before && before.view, view, names, this.seat, info.players);
    this.centre.renderStake(view, names, this.seat);
    this.dock.render({ info, view, me: this.seat, names, back: this.back || [], thinking: this.hintRef !== null,
      act: (move) => this.act(move), refuse: (reason) => this.showReason(reason) });
    renderHistory(this.els.history, view, names);
    const sameHand = before && before.view && before.info.hand_no === info.hand_no;
    const chopped = newChopPayments(sameHand ? before.view : null, view);
    if (chopped.length) this.centre.notice(...chopped.map(paymentLine));  // kept in the history too
    this.moments(before, chopped, names);
    if (view.is_over) {
      this.centre.quiet();  // the end panel lists every payment
      this.end.render(info, view, names, this.seat, this.offset);
      if (!(before && before.view && before.view.is_over) && this.hand.box.contains(document.activeElement)) {
        this.end.focus();
      }
    }
    this.tick();
  }

  /** The seats round the felt, with what a player may do at each (sit, take back, mute,
   * report, a player's card to befriend them; the host: remove, kick). */
  renderSeats(info, view) {
    const seats = this.els.seats;
    keepFocus(seats, () => renderSeats(seats, {
      info, view, me: this.seat, onRemove: (seat) => this.send({ type: "remove_seat", seat }),
      onSit: this.seat === null && !this.barred ? (seat) => this.send({ type: "join", seat, name: this.setup.name() }) : null,
      back: this.seat === null ? this.back || [] : [], onBack: (seat) => this.send({ type: "back", seat }),
      onReport: (seat, name) => openReport({ table: this.id, seat }, name, { hand: info.hand_no || undefined }),
      muted: this.chat.muted, onMute: (seat, on) => { this.chat.mute(seat, on); this.render(this.state); },
      onKick: (seat) => this.send({ type: "kick", seat }),
      onProfile: (seat, name) => openPlayerCard(this.id, seat, name),
    }));
  }

  renderActions() {
    const view = this.state && this.state.view;
    this.dock.renderActions(view, this.seat, view ? this.names() : [], this.hintRef !== null);
  }

  renderRecords() { return this.records.render(); }

  /** The moments a new state makes (motion.js; nothing when motion is off): the deal of a new
   * hand, a chop's stamp and its chips, the first player out, the hand's settlement in chips. */
  moments(before, chopped, names) {
    const { info, view } = this.state;
    const n = info.players;
    // a hand this tab has not shown yet (a reload mid-hand has): the deal
    const key = `tienlen-dealt-${this.id}`;
    const fresh = this.seat !== null && sessionStorage.getItem(key) !== String(info.hand_no);
    if (fresh) {
      sessionStorage.setItem(key, String(info.hand_no));
      deal(this.hand.box, this.els.seats);
    }
    if (!before) return;  // a page opened mid-hand: no other moment replayed
    for (const p of chopped) chips(p.payer, p.payee, p.units, this.seat, n);
    // the bomb lands: paid at once (chop_pay "each"), or put at stake until the round ends
    const staked = (v) => (v && v.at_stake ? v.at_stake.length : 0);
    const sameHand = before.view && before.info.hand_no === info.hand_no;
    const newStake = staked(view) > (sameHand ? staked(before.view) : 0);
    const lastPlay = view.events[view.events.length - 1];
    const landed = lastPlay && lastPlay.kind === "play" && chopped.some((p) => p.chops.some((c) => c.bomb === lastPlay.cards));
    if (newStake || landed) stamp(t("web.moment.chop"));
    // the hand ends in this tab: its settlement moves as chips (the chops' moved already)
    if (sameHand && view.is_over && !before.view.is_over) {
      settle(newPayments(before.view, view).filter((p) => p.kind !== "chop"), this.seat, n);
    }
    const out = sameHand ? before.view.finish_order.length : 0;
    if (out === 0 && view.finish_order.length > 0) {
      const first = view.finish_order[0];
      celebrate(first, this.seat, n, first === this.seat ? t("web.moment.you_first") : t("web.moment.first", { name: names[first] }));
    }
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
    const { info, view } = this.state;
    const deadline = this.deadline();
    tickCountdown(this.els.seats, view ? view.turn : null, deadline, this.offset, info.turn_timer || 0);
    if (view && view.is_over) this.end.tick(info, view, this.offset);
    const mine = deadline !== null && waited(asked(view, this.seat));
    this.dock.tickTimer(mine ? deadline : null, this.offset);
  }

  // ------------------------------------------------------------------ input
  wire() {
    this.setup.wire({
      onJoin: () => this.send({ type: "join", name: this.setup.name() }),
      onAddBot: () => {
        const level = this.setup.level(this.state && this.state.info);
        this.send(level ? { type: "add_bot", level } : { type: "add_bot" });
      },
      onStart: () => this.send({ type: "start" }),
    });
    this.dock.wire({
      onPlay: () => {
        const cards = this.hand.text();
        if (!cards) { this.showReason(t("web.error.select_to_play")); return; }
        this.act(cards);
      },
      onPass: () => this.act("pass"),
      onHint: () => this.askHint(),
    });
    this.end.wire(() => this.send({ type: "next_hand", version: this.state.version }));
    this.bar.wire(() => {
      const started = this.state && this.state.info.status !== "open";
      if (started && !window.confirm(t("web.room.leave_confirm"))) return;
      this.send({ type: "leave" });
    });
    mountBell();
    mountInvite(this.id);
    this.chat.mount();
    document.addEventListener("keydown", (ev) => this.shortcut(ev));
  }

  /** P play, X pass, H hint, N next hand, C clear the selection, / to the hand (none while a
   * replay or a review is open over the table). */
  shortcut(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (document.body.classList.contains("staged")) return;  // a replay or review over the table
    const t = ev.target;
    if (t instanceof HTMLElement && (t.closest("input, textarea, select, [contenteditable]"))) return;
    const { play, pass, hint } = this.dock.els;
    const btn = { p: play, x: pass, h: hint, n: this.end.els.nextHand }[ev.key.toLowerCase()];
    if (btn && usable(btn)) { ev.preventDefault(); btn.click(); return; }
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
