// The felt's centre: the play to beat and who made it (or who won the round and leads), what is
// at stake under chặt chồng, and the toast that says a moment's news above the felt.
import { cardsRow, playLabel } from "../lib/cards.js";
import { elements, h } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { motionOn } from "../lib/prefs.js";
import { lastPlayer } from "./history.js";
import { land, sweep } from "./motion.js";

export class Centre {
  constructor() {
    this.els = elements("trick", "table-play", "table-by", "at-stake", "toast");
  }

  /** The trick is shown while a hand is in play (not before, nor once it is over). */
  show(inPlay) { this.els.trick.hidden = !inPlay; }

  clear() {
    this.els.tablePlay.replaceChildren();
    this.els.tableBy.textContent = "";
  }

  /** The play to beat (it lands from its seat when it is new), or who won the round and leads;
   * a round's cards swept to its winner. */
  renderTrick(prev, view, names, me, players) {
    const { trick, tablePlay: play, tableBy: by } = this.els;
    const changed = !prev || prev.table !== view.table || prev.table_seat !== view.table_seat;
    if (view.table) {
      if (changed) {
        const row = cardsRow(view.table, "big");
        play.replaceChildren(row);
        if (prev) land(row, view.table_seat, me, players);
      }
      const byName = view.table_seat === me ? t("web.trick.you") : names[view.table_seat];
      by.textContent = t(view.stacking ? "web.trick.by_stacking" : "web.trick.by", { name: byName });
      play.setAttribute("aria-label", t("web.trick.label", { cards: playLabel(view.table), name: names[view.table_seat] }));
      trick.classList.remove("cleared");
      return;
    }
    play.replaceChildren();
    play.removeAttribute("aria-label");
    const won = lastPlayer(view.events);
    const leads = view.turn;
    if (view.phase !== "play") {
      by.textContent = t(`web.phase.${view.phase}`);
    } else if (won === null) {
      by.textContent = leads === null ? "" : (leads === me ? t("web.trick.you_lead_first")
        : t("web.trick.leads_first", { name: names[leads] }));
    } else if (won === me) {
      by.textContent = leads === me ? t("web.trick.you_won_you_lead")
        : t("web.trick.you_won_leads", { lead: names[leads] });
    } else {
      by.textContent = leads === me ? t("web.trick.won_you_lead", { name: names[won] })
        : t("web.trick.won_leads", { name: names[won], lead: names[leads] });
    }
    if (prev && prev.table) sweep(cardsRow(prev.table, "big"), won, me, players);
    if (prev && prev.table && motionOn()) {
      trick.classList.remove("cleared");
      void trick.offsetWidth;
      trick.classList.add("cleared");
    }
  }

  /** Under chặt chồng the round's chops are paid when it ends: what is at stake meanwhile. */
  renderStake(view, names, me) {
    const box = this.els.atStake;
    const stake = view.at_stake || [];
    box.hidden = !stake.length || view.is_over;
    if (box.hidden) { box.textContent = ""; return; }
    const last = stake[stake.length - 1];
    const units = tn("pay.units", stake.reduce((sum, c) => sum + c.units, 0));
    const key = last.owner === me ? "web.stake.line_you_owe" : last.chopper === me ? "web.stake.line_you_get" : "web.stake.line";
    box.textContent = t(key, { units, owner: names[last.owner], chopper: names[last.chopper] });
  }

  /** Lines said for a while above the felt (read out: the toast is a polite status). */
  notice(...lines) {
    const box = this.els.toast;
    box.replaceChildren(...lines.map((line) => h("p", { text: line })));
    box.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { box.hidden = true; }, 6000);
  }

  /** The toast put away (the end panel lists every payment). */
  quiet() { this.els.toast.hidden = true; }
}
