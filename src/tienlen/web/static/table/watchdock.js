// A spectator's dock: instead of an empty bar where a player's hand would be, who sits where
// (cards left, the session's units) and the table's settings; a seat the watcher left is marked
// as theirs (its "Take your seat back" button is the seat's own, on the felt).
import { h } from "../lib/dom.js";
import { presetName, seatName, t, tn } from "../lib/i18n.js";

/** Fill ``box`` for a watcher of the table ``info`` whose hand is ``view``. */
export function renderWatchDock(box, info, view, back) {
  const settings = [presetName(info.rules), tn("web.lobby.players", info.players),
    info.bot_level ? t("web.lobby.bots", { level: t(`bot.level.${info.bot_level}`) }) : "",
    info.turn_timer ? t("web.room.timer", { s: info.turn_timer }) : "",
    info.private ? t("web.room.private") : ""].filter(Boolean).join(" · ");
  const seats = info.seats.map((s) => {
    const units = info.totals[s.seat] ?? 0;
    return h("li.watch-seat", { testid: "watch-seat", dataset: { seat: s.seat } },
      h("b", { text: seatName(s) || t("web.seat.numbered", { n: s.seat + 1 }) }),
      h("span.muted", { text: tn("web.cards", view.counts[s.seat]) }),
      h(`span.units.${units > 0 ? "won" : units < 0 ? "lost" : "even"}`, { text: `${units > 0 ? "+" : ""}${units}` }),
      back.includes(s.seat) ? h("span.watch-yours", { text: t("web.watch.yours") }) : "");
  });
  box.replaceChildren(
    h("p.watch-title", {}, h("b", { text: t("web.watch.title") }), " ", h("span.muted", { text: settings })),
    h("ul.watch-seats", { "aria-label": t("web.watch.seats") }, seats));
}
