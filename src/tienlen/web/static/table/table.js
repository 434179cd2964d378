// One table: the felt with its seats, the play to beat, your hand and its actions, the end of a
// hand, the history, the scores and the records; played over the table's WebSocket.
import { mountBell, turnTitle } from "../lib/attention.js";
import { cardsRow, playLabel } from "../lib/cards.js";
import { Chat } from "./chat.js";
import { mountInvite } from "../people/friends.js";
import { $, h, keepFocus } from "../lib/dom.js";
import { placesOf, renderEnd } from "./endpanel.js";
import { Hand } from "./hand.js";
import { actionParams, eventWords, instantWords, lastPlayer, renderHistory, renderStrip } from "./history.js";
import { listAnd, presetName, seatName, t, tn } from "../lib/i18n.js";
import { levelKey } from "../lobby/lobby.js";
import { openReport, showBanned } from "../people/moderation.js";
import { api, applyDelta, Connection, tokenKey } from "../lib/net.js";
import { cardsText, newChopPayments, newPayments, paymentLine } from "./payments.js";
import { fitTable, watchLayout } from "./layout.js";
import { celebrate, chips, deal, land, settle, stamp, sweep } from "./motion.js";
import { motionOn } from "../lib/prefs.js";
import { renderSeats, tickCountdown } from "./seats.js";
import { buzz, cues, sound } from "./sound.js";
import { renderWatchDock } from "./watchdock.js";

const MAX_LEGAL = 400;  // the server's cap on the legal plays it lists (views.MAX_LEGAL)

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

/** What the server says this seat is asked (view.prompt: a kind, protocol.py's Prompt) in
 * words, web.prompt.<kind>, with the decision's facts: the other seat, the cards to select. */
function promptWords(view, names) {
  const d = view.decision;
  if (!view.prompt || !d) return "";
  const params = { name: names[d.to ?? -1] ?? "", cards: cardsText(view.table) };
  return d.count ? tn(`web.prompt.${view.prompt}`, d.count, params) : t(`web.prompt.${view.prompt}`, params);
}

/** Your lead: anything, or (the first lead of some rules) a play that holds the card every
 * legal play holds ("lead with 3♠ in your play"). */
function leadWords(view) {
  const held = new Set(view.hand);
  const plays = view.legal.map((m) => m.split(" ")).filter((cards) => cards.every((c) => held.has(c)));
  if (!plays.length || view.legal.length >= MAX_LEGAL) return t("web.status.your_lead");
  const needed = plays[0].filter((c) => plays.every((p) => p.includes(c)));
  return needed.length && plays.length > 1 ? t("web.status.your_lead_with", { cards: cardsText(needed.join(" ")) }) : t("web.status.your_lead");
}

export class Table {
  constructor(id) {
    this.id = id;
    this.state = null;
    this.seat = null;
    this.reason = "";
    this.recordsShown = -1;
    this.lastHint = null;
    this.hintRef = null;  // the seq of the hint asked for and not answered yet (the button thinks)
    this.offset = 0;  // server clock minus this clock, in seconds (estimated)
    this.offsetKnown = false;
    this.conn = new Connection(id, (ev) => this.receive(ev), (s) => this.connStatus(s));
    this.hand = new Hand($("hand"), () => this.renderActions());
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
    $("room").hidden = false;
    // the bot levels each rules set offers, weakest first (the setup's "Add a bot" offers them)
    api("/api/presets").then((p) => { this.levels = p.levels || null; if (this.state) this.render(this.state); }).catch(() => {});
    const asked = Number(new URLSearchParams(location.search).get("replay"));  // a profile's link
    if (asked > 0) this.replay(asked);
    watchLayout();
    this.conn.connect();
    this.timer = setInterval(() => this.tick(), 250);
  }

  missing(why = "") {
    this.conn.gone = true;
    $("room").hidden = true;
    $("missing").hidden = false;
    $("missing-why").textContent = why ? why.charAt(0).toUpperCase() + why.slice(1) + "."
      : t("web.missing.why", { id: this.id });
    document.title = t("web.title.missing");
    $("conn").textContent = "";
    clearInterval(this.timer);
  }

  connStatus(s) {
    const text = { connecting: t("web.conn.connecting"), reconnecting: t("web.conn.reconnecting"), open: "", gone: "",
      refused: t("web.conn.refused") }[s];
    $("conn").textContent = text;
    $("conn").classList.toggle("bad", s === "reconnecting" || s === "refused");
    if (s === "refused") this.notice(text);
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
      if (ev.barred && !this.barred) this.notice(t("web.room.barred_you"));
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
        $("hint-reason").textContent = "";
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
      this.showHint(ev.move, ev.reason);
    } else if (ev.type === "timed_out") {
      this.notice(ev.reason);  // what the turn timer played for us, in our language
    } else if (ev.type === "chat") {
      this.chat.receive(ev);
    } else if (ev.type === "removed") {
      const name = ev.name;
      const text = ev.how === "kicked" ? t("web.room.kicked", { name, n: ev.seat + 1 })
        : (this.seat === null && this.formerSeat === ev.seat ? t("web.room.removed_you") : t("web.room.removed", { name }));
      this.notice(text);
      this.chat.note(text);
      if (ev.how === "removed") this.chat.mute(ev.seat, false);  // the seat is someone else's next
    }
  }

  showReason(text) {
    this.reason = text;
    $("reason").textContent = text;
    // said where the player is looking: the dock while playing, the setup before the start,
    // above the felt for a spectator of a hand in play
    if ($("dock").hidden && !$("setup").hidden) $("setup-error").textContent = text;
    else if ($("dock").hidden) this.notice(text);
    $("status").textContent = t("web.status.not_allowed", { reason: text });
    $("status").classList.add("refused");
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

  /** The hint: its cards selected in the hand (or the status saying pass), and why, beside them. */
  showHint(move, reason) {
    this.lastHint = move;
    $("hint-reason").textContent = reason || "";
    if (move === "pass") {
      $("status").textContent = t("web.status.hint_pass");
      return;
    }
    this.hand.select(move.split(" "));
    $("status").textContent = t("web.status.hint", { cards: move });
  }

  names() { return this.state.info.seats.map((s) => seatName(s) || t("web.seat.numbered", { n: s.seat + 1 })); }

  // ------------------------------------------------------------------ drawing
  render(before) {
    const { info, view } = this.state;
    const names = this.names();
    const open = info.status === "open";
    const title = info.name || t("web.table_default", { id: info.id });
    const yours = view && !view.is_over && this.seat !== null && view.turn === this.seat;
    // seen from another tab: the title says it, flashes while the tab is hidden, may notify
    turnTitle(yours, t("web.title.table", { title }), t("web.title.your_turn", { title }), `${info.id}:${info.hand_no}:${this.state.version}`);
    $("table-title").textContent = title;
    $("table-id").textContent = info.id;
    $("rules-name").textContent = Object.keys(info.options).length ? t("web.room.rules_changed", { rules: presetName(info.rules) }) : presetName(info.rules);
    $("hand-no").textContent = info.hand_no ? t("web.room.hand_no", { n: info.hand_no }) : t("web.room.not_started");
    const extra = [info.private ? t("web.room.private") : "", info.seed !== undefined && info.seed !== null ? t("web.room.seed", { seed: info.seed }) : "",
      info.turn_timer ? t("web.room.timer", { s: info.turn_timer }) : "", info.paused ? t("web.room.paused") : ""].filter(Boolean);
    $("table-extra").textContent = extra.map((e) => ` · ${e}`).join("");
    const link = `${location.origin}/t/${info.id}`;
    $("invite").href = link;
    $("invite").textContent = link.replace(/^https?:\/\//, "");
    const hostFeatures = "host_seat" in info;
    $("leave").hidden = !(hostFeatures && this.seat !== null);

    // setup: join; the host alone seats bots and starts (a server without hosts: anyone seated)
    const host = hostFeatures ? info.host_seat ?? null : this.seat;
    const hosting = this.seat !== null && host === this.seat;
    $("setup").hidden = !open;
    $("join").hidden = this.seat !== null || this.barred;
    $("join-name").closest("label").hidden = this.seat !== null || this.barred;
    $("add-bot").hidden = !hosting;
    this.offerLevels(info, !hosting);
    $("start").hidden = !hosting;
    const empty = info.seats.filter((s) => s.kind === "empty").length;
    const hostName = host !== null && info.seats[host] ? seatName(info.seats[host]) : "";
    const guest = !hosting && hostName;  // seated or still watching: the host runs the table
    const guestFree = this.seat === null ? "web.setup.watch_free" : "web.setup.guest_free";
    $("setup-note").textContent = !open ? "" : guest
      ? (empty ? tn(guestFree, empty, { name: hostName }) : t("web.setup.guest_full", { name: hostName }))
      : (empty ? tn("web.setup.free", empty) : t("web.setup.full"));
    if (open) setEnabled($("start"), empty === 0, tn("web.setup.still_empty", empty));
    if (open) setEnabled($("add-bot"), empty > 0, t("web.setup.every_seat_taken"));

    keepFocus($("seats"), () => renderSeats($("seats"), {
      info, view, me: this.seat, onRemove: (seat) => this.send({ type: "remove_seat", seat }),
      onSit: this.seat === null && !this.barred ? (seat) => this.send({ type: "join", seat, name: $("join-name").value || t("web.default_name") }) : null,
      back: this.seat === null ? this.back || [] : [], onBack: (seat) => this.send({ type: "back", seat }),
      onReport: (seat, name) => openReport({ table: this.id, seat }, name, { hand: info.hand_no || undefined }),
      muted: this.chat.muted, onMute: (seat, on) => { this.chat.mute(seat, on); this.render(this.state); },
      onKick: (seat) => this.send({ type: "kick", seat }),
      onFriend: (seat, name) => api("/api/friends", { table: this.id, seat })
        .then((done) => this.notice(t(done.state === "friend" ? "web.friends.now" : "web.friends.sent", { name })))
        .catch((err) => this.notice(err.message)),
    }));
    this.chat.render(info, this.seat);
    this.renderScores();
    this.renderRecords();
    $("reason").textContent = this.reason;
    $("setup-error").textContent = open ? this.reason : "";
    const playing = view !== null;
    $("room").classList.toggle("playing", playing);
    $("room").classList.toggle("seated", this.seat !== null);
    $("room").classList.toggle("over", playing && view.is_over);
    $("felt").dataset.players = String(info.players);
    $("dock").hidden = !playing;
    fitTable();  // a phone: the felt above the dock, the setup below the felt
    $("end").hidden = !(playing && view.is_over);
    $("trick").hidden = !playing || view.is_over;
    if (!playing) {
      $("status").textContent = open ? t("web.status.waiting") : "";
      this.hand.show([]);
      $("table-play").replaceChildren();
      $("table-by").textContent = "";
      $("history").replaceChildren();
      $("decisions").replaceChildren();
      this.tick();
      return;
    }
    this.renderTrick(before && before.view, view, names);
    this.renderStake(view, names);
    const status = $("status");
    status.classList.remove("refused");
    status.textContent = this.statusText(view, names);
    this.hand.show(view.hand);
    // a watcher's dock: the seats, the units, the table's settings (no empty hand)
    const watching = this.seat === null;
    $("watch-dock").hidden = !watching;
    $("dock").classList.toggle("watching", watching);
    if (watching) renderWatchDock($("watch-dock"), info, view, this.back || []);
    // at your turn to play, the cards no legal play holds are dimmed (not when the legal list
    // was cut at its length limit, nor at a decision of another kind)
    const mine = view.phase === "play" && this.seat !== null && (view.turn === this.seat || view.free_chop);
    const whole = view.legal.length > 0 && view.legal.length < MAX_LEGAL;
    this.hand.dim(mine && whole && !view.is_over ? view.legal : null);
    this.renderActions();
    keepFocus($("decisions"), () => this.renderDecisions(view, names));
    renderHistory($("history"), view, names);
    renderStrip($("last-moves"), view, names);
    const sameHand = before && before.view && before.info.hand_no === info.hand_no;
    const chopped = newChopPayments(sameHand ? before.view : null, view);
    this.toast(chopped);
    this.moments(before, chopped, names);
    if (view.is_over) $("toast").hidden = true;  // the end panel lists every payment
    if (view.is_over) {
      renderEnd($("end"), view, names, this.seat);
      this.renderNext(info, names);
      if (!(before && before.view && before.view.is_over) && this.hand.box.contains(document.activeElement)) {
        $("next-hand").focus();
      }
    }
    this.tick();
  }

  /** The next-hand button and who the next hand waits for: "Waiting for Minh…" once you asked. */
  renderNext(info, names) {
    const ready = info.ready || [];
    const players = info.seats.filter((s) => s.kind === "human" && !s.bot_playing).map((s) => s.seat);
    const waiting = players.filter((s) => !ready.includes(s));
    const asked = this.seat !== null && ready.includes(this.seat);
    const btn = $("next-hand");
    btn.hidden = this.seat === null;
    btn.classList.toggle("asked", asked);
    btn.textContent = !asked ? t("web.end.next") : waiting.length
      ? t("web.end.waiting_for", { names: listAnd(waiting.map((s) => names[s])) }) : t("web.end.dealing");
    setEnabled(btn, !asked, t("web.end.asked_why"));
    const others = ready.filter((s) => s !== this.seat);
    const line = !asked && others.length ? tn("web.end.ready", others.length, { names: listAnd(others.map((s) => names[s])) })
      : (players.length > 1 && !ready.length ? (info.next_hand_after ? t("web.end.rule", { s: info.next_hand_after }) : t("web.end.rule_all")) : "");
    $("end-ready").textContent = line;
    this.tickNext();
  }

  /** The countdown to the next hand, under the button (none when no countdown runs). */
  tickNext() {
    const { info, view } = this.state;
    const at = view && view.is_over ? info.next_hand_at ?? null : null;
    const box = $("end-countdown");
    let text = "";
    if (at !== null) {
      const secs = Math.ceil(Math.max(0, at - (Date.now() / 1000 + this.offset)));
      text = t("web.end.deal_in", { time: `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}` });
      box.setAttribute("aria-label", tn("web.end.deal_in_label", secs));
    }
    if (box.textContent !== text) box.textContent = text;
    $("end-wait").hidden = !text && !$("end-ready").textContent;
  }

  renderTrick(prev, view, names) {
    const play = $("table-play");
    const by = $("table-by");
    const changed = !prev || prev.table !== view.table || prev.table_seat !== view.table_seat;
    if (view.table) {
      if (changed) {
        const row = cardsRow(view.table, "big");
        play.replaceChildren(row);
        if (prev) land(row, view.table_seat, this.seat, this.state.info.players);
      }
      const byName = view.table_seat === this.seat ? t("web.trick.you") : names[view.table_seat];
      by.textContent = t(view.stacking ? "web.trick.by_stacking" : "web.trick.by", { name: byName });
      play.setAttribute("aria-label", t("web.trick.label", { cards: playLabel(view.table), name: names[view.table_seat] }));
      $("trick").classList.remove("cleared");
    } else {
      play.replaceChildren();
      play.removeAttribute("aria-label");
      const won = lastPlayer(view.events);
      const leads = view.turn;
      if (view.phase !== "play") {
        by.textContent = t(`web.phase.${view.phase}`);
      } else if (won === null) {
        by.textContent = leads === null ? "" : (leads === this.seat ? t("web.trick.you_lead_first")
          : t("web.trick.leads_first", { name: names[leads] }));
      } else if (won === this.seat) {
        by.textContent = leads === this.seat ? t("web.trick.you_won_you_lead")
          : t("web.trick.you_won_leads", { lead: names[leads] });
      } else {
        by.textContent = leads === this.seat ? t("web.trick.won_you_lead", { name: names[won] })
          : t("web.trick.won_leads", { name: names[won], lead: names[leads] });
      }
      if (prev && prev.table) sweep(cardsRow(prev.table, "big"), won, this.seat, this.state.info.players);
      if (prev && prev.table && motionOn()) {
        $("trick").classList.remove("cleared");
        void $("trick").offsetWidth;
        $("trick").classList.add("cleared");
      }
    }
  }

  /** Under chặt chồng the round's chops are paid when it ends: what is at stake meanwhile. */
  renderStake(view, names) {
    const box = $("at-stake");
    const stake = view.at_stake || [];
    box.hidden = !stake.length || view.is_over;
    if (box.hidden) { box.textContent = ""; return; }
    const last = stake[stake.length - 1];
    const units = tn("pay.units", stake.reduce((sum, c) => sum + c.units, 0));
    const key = last.owner === this.seat ? "web.stake.line_you_owe" : last.chopper === this.seat ? "web.stake.line_you_get" : "web.stake.line";
    box.textContent = t(key, { units, owner: names[last.owner], chopper: names[last.chopper] });
  }

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
      deal($("hand"), $("seats"));
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

  /** Chop payments just made, said for a few seconds at the table (and kept in the history). */
  toast(payments) {
    if (!payments.length) return;
    this.notice(...payments.map(paymentLine));
  }

  /** Lines said for a while above the felt (read out: the toast is a polite status). */
  notice(...lines) {
    const box = $("toast");
    box.replaceChildren(...lines.map((line) => h("p", { text: line })));
    box.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { box.hidden = true; }, 6000);
  }

  statusText(view, names) {
    if (view.is_over) {
      const parts = [t("web.status.over", { name: names[placesOf(view)[0]] })];
      if (view.instant_win) parts.push(instantWords(view.instant_win) + ".");
      if (this.seat !== null) {
        const u = view.scores[this.seat];
        parts.push(u >= 0 ? tn("web.status.you_win_units", u) : tn("web.status.you_lose_units", -u));
      }
      return parts.join(" ");
    }
    if (view.prompt && view.turn === this.seat) return promptWords(view, names);
    if (view.turn === null) return "";
    const mine = view.turn === this.seat;
    let text;
    if (view.phase !== "play") {
      text = mine ? t("web.status.your_turn_phase", { phase: t(`web.phase_word.${view.phase}`) })
        : t("web.status.turn_phase", { name: names[view.turn], phase: t(`web.phase_word.${view.phase}`) });
    } else if (mine) {
      text = view.table ? t("web.status.your_turn") : leadWords(view);
    } else {
      text = t("web.status.turn", { name: names[view.turn] });
    }
    return view.prompt && !mine ? t("web.status.with_prompt", { text, prompt: promptWords(view, names) }) : text;
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
    const notYours = t("web.why.not_yours", { name: someone });
    const chop = !mine && view.phase === "play" && view.legal.length > 0;
    const canPlay = view.phase === "play" && (mine || chop);
    setEnabled($("play"), canPlay, notYours);
    const canPass = mine && view.phase === "play" && (view.legal.includes("pass") || view.legal.length >= 400);
    setEnabled($("pass"), canPass, !mine ? notYours : (view.table ? t("web.why.no_pass") : t("web.why.lead_no_pass")));
    const thinking = this.hintRef !== null;
    setEnabled($("hint"), (mine || chop) && !thinking, thinking ? t("hint.thinking_why") : notYours);
    $("hint").textContent = thinking ? t("hint.thinking") : t("web.room.hint");
    $("hint").classList.toggle("thinking", thinking);
    $("hint").setAttribute("aria-busy", thinking ? "true" : "false");
    const count = this.hand.selected.size;
    $("play").textContent = count ? t("web.room.play_n", { n: count }) : t("web.room.play");
    $("play").setAttribute("aria-label", count ? tn("web.room.play_label", count, { cards: playLabel(this.hand.text()) }) : t("web.room.play"));
  }

  /** The decision's buttons (view.decision.choices): a move as it is, or one made with the
   * selected cards, said by its kind (move.<kind>, web.decision.<kind>). */
  renderDecisions(view, names) {
    const box = $("decisions");
    box.replaceChildren();
    const d = view.decision;
    if (this.seat === null || view.is_over || !d) return;
    for (const c of d.choices || []) {
      const params = actionParams(c, names);
      const b = !c.cards ? button(t(`move.${c.kind}`, params), () => this.act(c.move), "decision")
        : button(t(`web.decision.${c.kind}`, { ...params, n: c.count }), () => {
          const cards = this.hand.text();
          if (!cards) { this.showReason(t("web.error.select_first")); return; }
          this.act(`${c.move} ${cards}`);
        }, "decision");
      b.dataset.key = `decision-${c.move}`;
      box.append(b);
    }
  }

  renderScores() {
    const { info, view } = this.state;
    const names = this.names();
    const table = $("scores");
    table.replaceChildren();
    const over = view && view.is_over;
    const head = table.createTHead().insertRow();
    for (const k of ["player", "total", "wins", ...(over ? ["hand"] : [])]) head.append(h("th", { scope: "col", text: t(`web.scores.${k}`) }));
    const body = table.createTBody();
    const order = names.map((_, s) => s).sort((a, b) => info.totals[b] - info.totals[a] || a - b);
    for (const s of order) {
      const row = body.insertRow();
      if (s === this.seat) row.className = "me";
      row.append(h("th", { scope: "row", text: s === this.seat ? t("web.you_suffix", { name: names[s] }) : names[s] }));
      const total = info.totals[s];
      row.append(h(`td.${total > 0 ? "won" : total < 0 ? "lost" : "even"}`, { text: `${total > 0 ? "+" : ""}${total}` }));
      row.append(h("td", { text: String(info.first_places[s]) }));
      if (over) row.append(h("td", { text: `${view.scores[s] > 0 ? "+" : ""}${view.scores[s]}` }));
    }
    const caption = table.createCaption();
    caption.textContent = info.hand_no ? tn("web.scores.after", info.records) : t("web.scores.none_yet");
  }

  async renderRecords() {
    const n = this.state.info.records;
    if (n === this.recordsShown) return;
    this.recordsShown = n;
    const list = $("records");
    list.replaceChildren();
    $("all-records").hidden = n === 0;
    $("all-records").href = `/api/tables/${this.id}/record.toml`;
    const ask = this.recordsAsked = (this.recordsAsked || 0) + 1;
    if (!n) { list.append(h("li.none", { text: t("web.records.none") })); return; }
    let records;
    try {
      records = await api(`/api/tables/${this.id}/records`);
    } catch {  // a private table's hands are its players' only (a watcher by link reads none)
      if (ask !== this.recordsAsked) return;
      $("all-records").hidden = true;
      list.replaceChildren(h("li.none", { text: t("web.records.private") }));
      return;
    }
    if (ask !== this.recordsAsked) return;  // asked again meanwhile: the later answer is drawn
    const info = this.state.info;
    const sharer = info.private && this.seat !== null && this.seat === info.host_seat;
    list.replaceChildren(...records.map((r) => h("li", {},
      h("a", { href: r.url, testid: "record", text: t("web.records.hand", { n: r.hand }) }), " ",
      h("button.small", { type: "button", testid: "replay-hand", text: t("web.replay.title"), "aria-label": t("web.records.replay_label", { n: r.hand }),
        onclick: () => this.replay(r.hand) }),
      sharer ? this.shareButton(r.hand) : "")));
  }

  /** The host's button that makes a link of its own to a hand of a private table, shown with
   * the way to stop sharing it. */
  shareButton(hand) {
    const place = h("span.share");
    const path = `/api/tables/${this.id}/records/${hand}/share`;
    const button = h("button.small", { type: "button", testid: "share-hand", text: t("web.records.share"), "aria-label": t("web.records.share_label", { n: hand }),
      onclick: async () => {
        try {
          const made = await api(path, {});
          const link = new URL(made.url, location.href).href;
          const stop = h("button.small", { type: "button", testid: "unshare-hand", text: t("web.records.unshare"),
            onclick: async () => { await api(`${path}/remove`, {}).catch(() => {}); place.replaceChildren(button); } });
          place.replaceChildren(h("span", { text: t("web.records.shared", { n: hand }) }), " ",
            h("input", { type: "text", readOnly: true, value: link, testid: "share-link", "aria-label": t("web.records.share_label", { n: hand }) }), " ", stop);
          navigator.clipboard?.writeText(link).catch(() => {});
        } catch (err) {
          place.replaceChildren(button, h("span", { role: "alert", text: ` ${err.message}` }));
        }
      } });
    place.append(button);
    return place;
  }

  async replay(hand) {
    const panel = $("replay");
    $("replay-title").textContent = t("web.room.hand_no", { n: hand });
    let data;
    try {
      data = await api(`/api/tables/${this.id}/records/${hand}/replay`);
    } catch (err) {  // said in the panel, where the replay would have been
      panel.hidden = false;
      $("replay-step").hidden = true;
      $("replay-hands").replaceChildren();
      $("replay-last").textContent = err.message.charAt(0).toUpperCase() + err.message.slice(1);  // the server's why
      $("replay-last").setAttribute("role", "alert");
      panel.scrollIntoView({ block: "nearest" });
      return;
    }
    panel.hidden = false;
    $("replay-step").hidden = false;
    $("replay-last").removeAttribute("role");
    const slider = $("replay-step");
    slider.max = data.steps.length - 1;
    slider.value = 0;
    const show = () => {
      const step = data.steps[Number(slider.value)];
      const e = step.event;
      const last = !e ? t("web.replay.dealt")
        : `${data.names[e.seat]}: ${e.kind === "play" ? e.cards : eventWords(e, data.names)}`;
      $("replay-last").textContent = step.table ? t("web.replay.step_beat", { i: slider.value, n: slider.max, last, table: step.table })
        : t("web.replay.step.text", { i: slider.value, n: slider.max, last });
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
    const deadline = this.deadline();
    tickCountdown($("seats"), view ? view.turn : null, deadline, this.offset, this.state.info.turn_timer || 0);
    if (view && view.is_over) this.tickNext();
    // your turn against the clock: a large timer in your dock, ticking in its last five seconds
    const box = $("dock-timer");
    const mine = deadline !== null && view && !view.is_over && view.turn === this.seat;
    box.hidden = !mine;
    if (!mine) return;
    const left = Math.max(0, deadline - (Date.now() / 1000 + this.offset));
    const secs = Math.ceil(left);
    const text = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
    if (box.textContent !== text) box.textContent = text;
    box.classList.toggle("low", left <= 5);
    box.setAttribute("aria-label", tn("web.seat.seconds_left", secs));
    if (secs > 0 && secs <= 5 && secs !== this.ticked) { this.ticked = secs; sound("tick"); }
  }

  /** The setup's level select: the levels the table's rules offer, the table's own chosen
   * until the host picks another. */
  offerLevels(info, hidden) {
    const select = $("add-level");
    const offered = this.levels && this.levels[info.rules];
    select.hidden = hidden || !offered;
    if (!offered) return;
    for (const option of select.options) option.hidden = option.disabled = !offered.includes(option.value);
    if (!this.levelPicked || !offered.includes(select.value)) {
      const own = info.bot_level || sessionStorage.getItem(levelKey(this.id));
      select.value = offered.includes(own) ? own : "heuristic";
    }
  }

  // ------------------------------------------------------------------ input
  wire() {
    $("join").addEventListener("click", () => this.send({ type: "join", name: $("join-name").value || t("web.default_name") }));
    $("join-name").value = localStorage.getItem("tienlen-name") || t("web.default_name");
    $("join-name").addEventListener("keydown", (ev) => { if (ev.key === "Enter") $("join").click(); });
    const guard = (btn, fn) => btn.addEventListener("click", () => { if (usable(btn)) fn(); });
    $("add-level").addEventListener("change", () => { this.levelPicked = true; });
    guard($("add-bot"), () => {
      const picked = $("add-level").hidden ? null : $("add-level").value;
      const level = picked || (this.state && this.state.info.bot_level) || sessionStorage.getItem(levelKey(this.id));
      this.send(level ? { type: "add_bot", level } : { type: "add_bot" });
    });
    guard($("start"), () => this.send({ type: "start" }));
    guard($("play"), () => {
      const cards = this.hand.text();
      if (!cards) { this.showReason(t("web.error.select_to_play")); return; }
      this.act(cards);
    });
    guard($("pass"), () => this.act("pass"));
    guard($("hint"), () => this.askHint());
    guard($("next-hand"), () => this.send({ type: "next_hand", version: this.state.version }));
    $("leave").addEventListener("click", () => {
      const started = this.state && this.state.info.status !== "open";
      if (started && !window.confirm(t("web.room.leave_confirm"))) return;
      this.send({ type: "leave" });
    });
    mountBell();
    mountInvite(this.id);
    this.chat.mount();
    $("copy").addEventListener("click", async () => {
      try { await navigator.clipboard.writeText($("invite").href); $("copy").textContent = t("web.room.copied"); } catch { $("copy").textContent = t("web.room.copy_failed"); }
      setTimeout(() => { $("copy").textContent = t("web.room.copy"); }, 1500);
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
