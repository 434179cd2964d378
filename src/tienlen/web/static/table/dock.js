// The dock under the felt: the last moves, a spectator's seats, your turn's timer, the status
// line with a hint's reason, a refusal's reason, the decision's buttons, your hand, and Play,
// Pass and Hint.
import { cardsText, cardWords, playLabel } from "../lib/cards.js";
import { elements, h, keepFocus, onUsableClick, setEnabled } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { asked, mayPass, mayPlay } from "./decision.js";
import { Hand } from "./hand.js";
import { actionParams, renderStrip } from "./history.js";
import { sound } from "./sound.js";
import { MAX_LEGAL, statusText } from "./status.js";
import { renderWatchDock } from "./watchdock.js";

function button(text, onClick, testid) {
  return h("button", { type: "button", testid, text, onclick: onClick });
}

export class Dock {
  /** ``onSelect()``: the hand's selection changed. */
  constructor(onSelect) {
    this.els = elements("dock", "last-moves", "watch-dock", "dock-timer", "status", "hint-reason", "reason",
      "decisions", "hand", "play", "pass", "hint", "keys");
    this.hand = new Hand(this.els.hand, onSelect);
    this.ticked = null;  // the last second the timer ticked aloud
  }

  get hidden() { return this.els.dock.hidden; }

  /** Shown while a hand is in play or just over; a watcher's dock shows the seats instead. */
  show(playing) { this.els.dock.hidden = !playing; }

  /** The reason the last command was refused ("" once a new state came). */
  say(reason) { this.els.reason.textContent = reason; }

  /** A refusal: its reason, and the status line saying the move was not allowed. */
  refused(reason) {
    this.say(reason);
    this.els.status.textContent = t("web.status.not_allowed", { reason });
    this.els.status.classList.add("refused");
  }

  /** The hint: its cards selected in the hand (or the status saying pass), and why, beside them. */
  showHint(move, reason) {
    this.els.hintReason.textContent = cardWords(reason || "");
    if (move === "pass") {
      this.els.status.textContent = t("web.status.hint_pass");
      return;
    }
    this.hand.select(move.split(" "));
    this.els.status.textContent = t("web.status.hint", { cards: cardsText(move) });
  }

  clearHint() { this.els.hintReason.textContent = ""; }

  /** No hand in play: the setup's status line, an empty hand, no decision. */
  renderIdle(open) {
    this.els.status.textContent = open ? t("web.status.waiting") : "";
    this.hand.show([]);
    this.els.decisions.replaceChildren();
  }

  /** A hand in play or just over, for seat ``me`` (null: watching); ``act(move)`` plays,
   * ``refuse(reason)`` says why a decision cannot be made yet. */
  render({ info, view, me, names, back, thinking, act, refuse }) {
    const status = this.els.status;
    status.classList.remove("refused");
    status.textContent = statusText(view, me, names);
    this.hand.show(view.hand);
    // a watcher's dock: the seats, the units, the table's settings (no empty hand)
    const watching = me === null;
    this.els.watchDock.hidden = !watching;
    this.els.dock.classList.toggle("watching", watching);
    if (watching) renderWatchDock(this.els.watchDock, info, view, back);
    // at your turn to play and at a free chop offered you, the cards no legal play holds are
    // dimmed (not when the legal list was cut at its length limit, nor at a decision of
    // another kind; nor for a chop you may make any time out of turn: your hand stays as it
    // is while the others play)
    const d = asked(view, me);
    const dims = d !== null && (d.kind === "play" || d.kind === "free_chop");
    const whole = view.legal.length > 0 && view.legal.length < MAX_LEGAL;
    this.hand.dim(dims && whole ? view.legal : null);
    this.renderActions(view, me, names, thinking);
    keepFocus(this.els.decisions, () => this.renderDecisions(view, me, names, act, refuse));
    renderStrip(this.els.lastMoves, view, names);
  }

  /** Play, Pass and Hint: shown while a seated player's hand is in play, each usable as the
   * decision asked says (view.decision), or not with the reason; Hint thinks while its answer
   * is awaited. */
  renderActions(view, me, names, thinking) {
    const { play, pass, hint } = this.els;
    // before the play (claims, trades) the decisions' buttons stand in for Play and Pass
    const off = !view || me === null || view.is_over || view.phase !== "play";
    for (const b of [play, pass, hint]) b.hidden = off;
    this.els.keys.hidden = off;
    if (off) return;
    const d = asked(view, me);
    const someone = view.turn === null ? "" : names[view.turn];
    const notYours = t("web.why.not_yours", { name: someone });
    const plays = mayPlay(d);
    setEnabled(play, plays, notYours);
    const noPass = view.table ? t("web.why.no_pass") : t("web.why.lead_no_pass");
    setEnabled(pass, mayPass(d), d && d.kind === "play" ? noPass : notYours);
    setEnabled(hint, plays && !thinking, thinking ? t("hint.thinking_why") : notYours);
    hint.textContent = thinking ? t("hint.thinking") : t("web.room.hint");
    hint.classList.toggle("thinking", thinking);
    hint.setAttribute("aria-busy", thinking ? "true" : "false");
    const count = this.hand.selected.size;
    play.textContent = count ? t("web.room.play_n", { n: count }) : t("web.room.play");
    play.setAttribute("aria-label", count ? tn("web.room.play_label", count, { cards: playLabel(this.hand.text()) }) : t("web.room.play"));
  }

  /** The decision's buttons (view.decision.choices): a move as it is, or one made with the
   * selected cards, said by its kind (move.<kind>, web.decision.<kind>). */
  renderDecisions(view, me, names, act, refuse) {
    const box = this.els.decisions;
    box.replaceChildren();
    const d = asked(view, me);
    if (!d) return;
    for (const c of d.choices || []) {
      const params = actionParams(c, names);
      const b = !c.cards ? button(t(`move.${c.kind}`, params), () => act(c.move), "decision")
        : button(t(`web.decision.${c.kind}`, { ...params, n: c.count }), () => {
          const cards = this.hand.text();
          if (!cards) { refuse(t("web.error.select_first")); return; }
          act(`${c.move} ${cards}`);
        }, "decision");
      b.dataset.key = `decision-${c.move}`;
      box.append(b);
    }
  }

  /** Your turn against the clock (``deadline``: none, null): a large timer in your dock,
   * ticking in its last five seconds. */
  tickTimer(deadline, offset) {
    const box = this.els.dockTimer;
    box.hidden = deadline === null;
    if (deadline === null) return;
    const left = Math.max(0, deadline - (Date.now() / 1000 + offset));
    const secs = Math.ceil(left);
    const text = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
    if (box.textContent !== text) box.textContent = text;
    box.classList.toggle("low", left <= 5);
    box.setAttribute("aria-label", tn("web.seat.seconds_left", secs));
    if (secs > 0 && secs <= 5 && secs !== this.ticked) { this.ticked = secs; sound("tick"); }
  }

  /** Play (the selected cards), Pass and Hint, each only while usable. */
  wire({ onPlay, onPass, onHint }) {
    const { play, pass, hint } = this.els;
    onUsableClick(play, onPlay);
    onUsableClick(pass, onPass);
    onUsableClick(hint, onHint);
  }
}
