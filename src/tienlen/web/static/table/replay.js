// A finished hand replayed on the stage's felt (stage.js): every seat's cards face up, the play
// to beat, the moment's words (who played, what it beat, who won the round, a chop and what it
// paid); stepped back and forward, played by itself at ½×–4×, by buttons, a slider, the keys
// (← →, Space, Home, End, Escape) and swipes across the felt. Opened from the table's records,
// the end panel, a profile's hand (/replay/ID/N) and a shared link (/shared/SECRET).
import { cardWords, cardsText } from "../lib/cards.js";
import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { api } from "../lib/net.js";
import { eventWords } from "./history.js";
import { placesOf } from "./seats.js";
import { stage } from "./stage.js";

const SPEEDS = [["0.5", "½×"], ["1", "1×"], ["2", "2×"], ["4", "4×"]];

/** Each seat's place at a step, from the order they went out (-1: still in); once the hand is
 * over, every seat's (seats.js placesOf: those still holding cards after them, fewest first). */
function placesAt(steps, upTo) {
  const order = [];
  for (let i = 0; i <= upTo; i++) {
    steps[i].hands.forEach((hd, s) => { if (!hd.length && !order.includes(s)) order.push(s); });
  }
  const { hands, over } = steps[upTo];
  const all = placesOf({ finish_order: order, counts: hands.map((hd) => hd.length) });
  return hands.map((_, s) => (over || order.includes(s) ? all.indexOf(s) : -1));
}

/** What happened at step ``i`` of ``data``, in words: the deal, a play and what it beat, a pass
 * and who won the round, the payments it made. */
export function momentWords(data, i) {
  const { names, steps } = data;
  const step = steps[i];
  const before = i > 0 ? steps[i - 1] : null;
  const e = step.event;
  const parts = [];
  if (!e) {
    parts.push(step.turn === null ? t("web.replay.dealt") : t("web.replay.dealt_leads", { name: names[step.turn] }));
  } else if (e.kind === "play" && step.chop) {
    parts.push(t("web.replay.chops", { name: names[e.seat], cards: cardsText(e.cards), target: cardsText(step.chop.target), owner: names[step.chop.owner] }));
  } else if (e.kind === "play") {
    const over = before && before.table && before.table_seat !== null && before.table_seat !== e.seat;
    parts.push(over ? t("web.replay.beat", { name: names[e.seat], cards: cardsText(e.cards), over: cardsText(before.table), owner: names[before.table_seat] })
      : t("web.replay.played", { name: names[e.seat], cards: cardsText(e.cards) }));
  } else if (e.kind === "pass") {
    const on = before && before.table && before.table_seat !== null;
    parts.push(on ? t("web.replay.passed_on", { name: names[e.seat], cards: cardsText(before.table), owner: names[before.table_seat] })
      : t("web.replay.passed", { name: names[e.seat] }));
  } else {
    parts.push(`${names[e.seat]}: ${eventWords(e, names)}`);
  }
  if (before && before.table && !step.table && !step.over && step.turn !== null) {
    parts.push(t("web.replay.round_won", { name: names[step.turn] }));  // all passed: it leads
  }
  for (const p of step.paid || []) parts.push(cardWords(p.words));
  if (step.over) parts.push(t("web.replay.over"));
  return parts.join(" · ");
}

export class Replay {
  constructor() {
    this.data = null;
    this.playing = null;  // the timer of the replay playing by itself
    this.at = 0;
  }

  /** Replay the hand at ``url`` (its replay's JSON), titled ``title``; ``viewer``: the seat
   * drawn at the bottom; ``record``: the record file's link; ``page``: the page is the replay. */
  async open(url, { title, viewer = 0, record = null, page = false }) {
    const foot = this.foot();
    const links = record ? [h("a", { href: record, testid: "stage-record", text: t("web.replay.record") })] : [];
    stage().show({ title, foot, links, page, onClose: () => this.pause() });
    const { last, slider } = this.els;
    last.textContent = t("web.replay.loading");
    slider.hidden = true;
    let data;
    try {
      data = await api(url);
    } catch (err) {  // said where the replay would have been
      last.textContent = err.message.charAt(0).toUpperCase() + err.message.slice(1);
      last.setAttribute("role", "alert");
      this.els.controls.hidden = true;
      return;
    }
    this.data = data;
    this.viewer = Math.min(Math.max(0, viewer), data.names.length - 1);
    slider.hidden = false;
    slider.max = String(data.steps.length - 1);
    this.go(0);
    (page ? this.els.play : stage().els.stage).focus();
  }

  /** The replay's controls, made anew for each replay. */
  foot() {
    const slider = h("input", { type: "range", min: "0", value: "0", testid: "replay-step", "aria-label": t("web.replay.step"),
      oninput: () => { this.pause(); this.go(Number(slider.value)); } });
    const last = h("p.replay-last", { testid: "replay-last", role: "status", "aria-live": "polite" });
    const count = h("span.replay-count", { testid: "replay-count", "aria-hidden": "true" });
    const back = h("button.small", { type: "button", testid: "replay-back", text: "◀", "aria-label": t("web.replay.back"),
      "aria-keyshortcuts": "ArrowLeft", onclick: () => { this.pause(); this.step(-1); } });
    const play = h("button.small.primary", { type: "button", testid: "replay-play", text: t("web.replay.play"),
      "aria-pressed": "false", "aria-keyshortcuts": "Space", onclick: () => this.play(!this.playing) });
    const forward = h("button.small", { type: "button", testid: "replay-forward", text: "▶", "aria-label": t("web.replay.forward"),
      "aria-keyshortcuts": "ArrowRight", onclick: () => { this.pause(); this.step(1); } });
    const speed = h("select", { testid: "replay-speed", "aria-label": t("web.replay.speed"), onchange: () => { if (this.playing) this.play(true); } },
      SPEEDS.map(([v, label]) => h("option", { value: v, text: label, selected: v === "1" })));
    const controls = h("div.replay-controls", { role: "group", "aria-label": t("web.replay.controls") },
      back, play, forward, count, h("label.replay-speed", {}, h("span", { text: t("web.replay.speed") }), " ", speed));
    this.els = { slider, last, count, back, play, forward, speed, controls };
    const foot = h("div.replay", { testid: "replay" }, last, slider, controls);
    foot.addEventListener("keydown", (ev) => this.key(ev));
    this.swipes();
    return foot;
  }

  /** ← → a step, Home/End the ends, Space plays or pauses (keys of the slider and the speed
   * are theirs). */
  key(ev) {
    if (ev.target === this.els.slider || ev.target.tagName === "SELECT") return;
    const by = { ArrowLeft: -1, ArrowRight: 1 }[ev.key];
    if (by) { this.pause(); this.step(by); ev.preventDefault(); return; }
    if (ev.key === "Home" || ev.key === "End") {
      this.pause();
      this.go(ev.key === "Home" ? 0 : this.data.steps.length - 1);
      ev.preventDefault();
    } else if (ev.key === " " && ev.target.tagName !== "BUTTON") {
      this.play(!this.playing);
      ev.preventDefault();
    }
  }

  /** A swipe across the felt: a step back (right) or forward (left). */
  swipes() {
    const felt = stage().els.stageFelt;
    if (felt.dataset.swipes) return;
    felt.dataset.swipes = "1";
    let from = null;
    felt.addEventListener("touchstart", (ev) => { from = ev.touches[0].clientX; }, { passive: true });
    felt.addEventListener("touchend", (ev) => {
      if (from === null || !stage().replay) return;
      const dx = ev.changedTouches[0].clientX - from;
      from = null;
      if (Math.abs(dx) > 40) { stage().replay.pause(); stage().replay.step(dx < 0 ? 1 : -1); }
    });
  }

  /** Show step ``i``. */
  go(i) {
    const data = this.data;
    if (!data) return;
    stage().replay = this;
    this.at = Math.max(0, Math.min(data.steps.length - 1, i));
    const step = data.steps[this.at];
    const { slider, last, count, back, forward } = this.els;
    slider.value = String(this.at);
    count.textContent = `${this.at} / ${data.steps.length - 1}`;
    const focused = document.activeElement;
    back.disabled = this.at === 0;
    forward.disabled = this.at >= data.steps.length - 1;
    if (focused && focused.disabled) this.els.play.focus();  // the keys keep working at either end
    last.removeAttribute("role");
    last.textContent = momentWords(data, this.at);
    stage().draw({
      names: data.names, viewer: this.viewer, hands: step.hands.map((hd) => hd.join(" ")), table: step.table,
      tableSeat: step.table_seat ?? null, turn: step.over ? null : step.turn, places: placesAt(data.steps, this.at),
      lead: !step.over && step.turn !== null ? t("web.stage.leads", { name: data.names[step.turn] }) : "",
      stamp: step.chop ? t("web.moment.chop") : "",
    });
  }

  /** Move ``by`` steps (within the hand); whether it moved. */
  step(by) {
    if (!this.data) return false;
    const next = Math.max(0, Math.min(this.data.steps.length - 1, this.at + by));
    if (next === this.at) return false;
    this.go(next);
    return true;
  }

  /** Play the replay by itself at the chosen speed, to its end; or pause it. */
  play(on) {
    clearInterval(this.playing);
    this.playing = null;
    if (on && this.data) {
      if (this.at >= this.data.steps.length - 1) this.go(0);  // from the start again
      const every = 1000 / Number(this.els.speed.value || 1);
      this.playing = setInterval(() => { if (!this.step(1)) this.play(false); }, every);
    }
    this.els.play.setAttribute("aria-pressed", String(Boolean(this.playing)));
    this.els.play.textContent = t(this.playing ? "web.replay.pause" : "web.replay.play");
  }

  pause() { if (this.playing) this.play(false); }
}

/** Replay hand ``hand`` of table ``tableId`` over the page, seat ``viewer`` at the bottom (the
 * end panel's Replay, the table's records). */
export function replayHand(tableId, hand, viewer) {
  const base = `/api/tables/${encodeURIComponent(tableId)}/records/${hand}`;
  new Replay().open(`${base}/replay`, { title: `${t("web.replay.title")} · ${t("web.room.hand_no", { n: hand })}`,
    viewer: viewer ?? 0, record: base });
}

/** A replay's own page: a profile's hand (/replay/ID/N) or a shared one (/shared/SECRET). */
export function replayPage(path) {
  const main = document.getElementById("replay-page");
  main.hidden = false;
  main.append(stage().els.stage);
  const shared = path.startsWith("/shared/");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  const [url, record, title] = shared
    ? [`/api/shared/${encodeURIComponent(parts[1])}/replay`, `/api/shared/${encodeURIComponent(parts[1])}`, t("web.replay.shared_title")]
    : [`/api/tables/${encodeURIComponent(parts[1])}/records/${encodeURIComponent(parts[2])}/replay`,
      `/api/tables/${encodeURIComponent(parts[1])}/records/${encodeURIComponent(parts[2])}`,
      t("web.room.hand_no", { n: parts[2] })];
  document.title = t("web.title.replay", { title });
  const viewer = Number(new URLSearchParams(location.search).get("seat")) || 0;
  new Replay().open(url, { title: `${t("web.replay.title")} · ${title}`, record, viewer, page: true });
}
