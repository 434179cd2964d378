// The side's scores: each seat's total over the session and its first places, this hand's
// units once it is over; the best first.
import { $, h } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";

export class Scores {
  constructor() {
    this.box = $("scores");
  }

  render(info, view, names, me) {
    const table = this.box;
    table.replaceChildren();
    const over = view && view.is_over;
    const head = table.createTHead().insertRow();
    for (const k of ["player", "total", "wins", ...(over ? ["hand"] : [])]) head.append(h("th", { scope: "col", text: t(`web.scores.${k}`) }));
    const body = table.createTBody();
    const order = names.map((_, s) => s).sort((a, b) => info.totals[b] - info.totals[a] || a - b);
    for (const s of order) {
      const row = body.insertRow();
      if (s === me) row.className = "me";
      row.append(h("th", { scope: "row", text: s === me ? t("web.you_suffix", { name: names[s] }) : names[s] }));
      const total = info.totals[s];
      row.append(h(`td.${total > 0 ? "won" : total < 0 ? "lost" : "even"}`, { text: `${total > 0 ? "+" : ""}${total}` }));
      row.append(h("td", { text: String(info.first_places[s]) }));
      if (over) row.append(h("td", { text: `${view.scores[s] > 0 ? "+" : ""}${view.scores[s]}` }));
    }
    const caption = table.createCaption();
    caption.textContent = info.hand_no ? tn("web.scores.after", info.records) : t("web.scores.none_yet");
  }
}
