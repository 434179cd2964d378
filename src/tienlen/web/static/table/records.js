// The side's records: the table's finished hands (a link to each record, its replay, and for the
// host of a private table a link of its own to share), and the replay panel, step by step.
import { cardsRow, cardsText } from "../lib/cards.js";
import { elements, h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { api } from "../lib/net.js";
import { eventWords } from "./history.js";

export class Records {
  /** ``now()``: the table as it is now, ``{ info, seat }`` (read again once an answer comes). */
  constructor(tableId, now) {
    this.id = tableId;
    this.now = now;
    this.shown = -1;  // the number of records drawn
    this.asked = 0;   // the asks made: only the latest one's answer is drawn
    this.els = elements("records", "all-records", "replay", "replay-title", "replay-step", "replay-last",
      "replay-hands", "replay-close", "replay-back", "replay-play", "replay-forward", "replay-speed");
    this.playing = null;  // the timer of a replay playing by itself
  }

  async render() {
    const n = this.now().info.records;
    if (n === this.shown) return;
    this.shown = n;
    const { records: list, allRecords } = this.els;
    list.replaceChildren();
    allRecords.hidden = n === 0;
    allRecords.href = `/api/tables/${this.id}/record.toml`;
    const ask = this.asked = this.asked + 1;
    if (!n) { list.append(h("li.none", { text: t("web.records.none") })); return; }
    let records;
    try {
      records = await api(`/api/tables/${this.id}/records`);
    } catch {  // a private table's hands are its players' only (a watcher by link reads none)
      if (ask !== this.asked) return;
      allRecords.hidden = true;
      list.replaceChildren(h("li.none", { text: t("web.records.private") }));
      return;
    }
    if (ask !== this.asked) return;  // asked again meanwhile: the later answer is drawn
    const { info, seat } = this.now();
    const sharer = info.private && seat !== null && seat === info.host_seat;
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

  /** The replay of ``hand`` in its panel: a slider over its steps, every hand at each. */
  async replay(hand) {
    const { replay: panel, replayTitle, replayStep: slider, replayLast: last, replayHands: hands } = this.els;
    replayTitle.textContent = t("web.room.hand_no", { n: hand });
    let data;
    try {
      data = await api(`/api/tables/${this.id}/records/${hand}/replay`);
    } catch (err) {  // said in the panel, where the replay would have been
      panel.hidden = false;
      slider.hidden = true;
      hands.replaceChildren();
      last.textContent = err.message.charAt(0).toUpperCase() + err.message.slice(1);  // the server's why
      last.setAttribute("role", "alert");
      panel.scrollIntoView({ block: "nearest" });
      return;
    }
    panel.hidden = false;
    slider.hidden = false;
    last.removeAttribute("role");
    slider.max = data.steps.length - 1;
    slider.value = 0;
    const show = () => {
      const step = data.steps[Number(slider.value)];
      const e = step.event;
      const said = !e ? t("web.replay.dealt")
        : `${data.names[e.seat]}: ${e.kind === "play" ? cardsText(e.cards) : eventWords(e, data.names)}`;
      last.textContent = step.table ? t("web.replay.step_beat", { i: slider.value, n: slider.max, last: said, table: cardsText(step.table) })
        : t("web.replay.step.text", { i: slider.value, n: slider.max, last: said });
      hands.replaceChildren(...step.hands.map((hd, s) => h("div.replay-row", {},
        h("span.move-who", { text: `${data.names[s]}${step.turn === s ? " ◀" : ""}` }), cardsRow(hd.join(" "), "hist"))));
    };
    slider.oninput = () => { this.pause(); show(); };
    this.show = show;
    this.pause();
    show();
    panel.scrollIntoView({ block: "nearest" });
    slider.focus();
  }

  /** Move the replay ``by`` steps (within the hand). */
  step(by) {
    const slider = this.els.replayStep;
    const next = Math.min(Number(slider.max), Math.max(0, Number(slider.value) + by));
    if (next === Number(slider.value)) return false;
    slider.value = String(next);
    if (this.show) this.show();
    return true;
  }

  /** Play the replay by itself at the chosen speed, to its end; or pause it. */
  play(on) {
    const button = this.els.replayPlay;
    clearInterval(this.playing);
    this.playing = null;
    if (on) {
      const slider = this.els.replayStep;
      if (Number(slider.value) >= Number(slider.max)) slider.value = "0";  // from the start again
      const every = 1000 / Number(this.els.replaySpeed.value || 1);
      this.playing = setInterval(() => { if (!this.step(1)) this.play(false); }, every);
    }
    button.setAttribute("aria-pressed", String(Boolean(on)));
    button.textContent = t(on ? "web.replay.pause" : "web.replay.play");
  }

  pause() { if (this.playing) this.play(false); }

  wire() {
    const { replay, replayClose, replayBack, replayForward, replayPlay, replaySpeed, replayHands } = this.els;
    replayClose.addEventListener("click", () => { this.pause(); replay.hidden = true; });
    replayBack.addEventListener("click", () => { this.pause(); this.step(-1); });
    replayForward.addEventListener("click", () => { this.pause(); this.step(1); });
    replayPlay.addEventListener("click", () => this.play(!this.playing));
    replaySpeed.addEventListener("change", () => { if (this.playing) this.play(true); });
    // keys anywhere in the panel (the slider has its own arrows): ← →, Space, Escape
    replay.addEventListener("keydown", (ev) => {
      if (ev.target === this.els.replayStep || ev.target.tagName === "SELECT") return;
      if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
        this.pause();
        this.step(ev.key === "ArrowLeft" ? -1 : 1);
        ev.preventDefault();
      } else if (ev.key === " " && ev.target === replay) {
        this.play(!this.playing);
        ev.preventDefault();
      } else if (ev.key === "Escape") {
        this.pause();
        replay.hidden = true;
      }
    });
    // a swipe across the hands: a step back (right) or forward (left)
    let from = null;
    replayHands.addEventListener("touchstart", (ev) => { from = ev.touches[0].clientX; }, { passive: true });
    replayHands.addEventListener("touchend", (ev) => {
      if (from === null) return;
      const dx = ev.changedTouches[0].clientX - from;
      from = null;
      if (Math.abs(dx) > 40) { this.pause(); this.step(dx < 0 ? 1 : -1); }
    });
  }
}
