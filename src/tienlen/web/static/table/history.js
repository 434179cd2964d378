// This hand's moves, grouped by round (a round ends when everyone else passed), with real cards.
import { cardsRow, playLabel } from "../lib/cards.js";
import { h } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { paymentLine } from "./payments.js";
import { botFace } from "./seats.js";

/** The history's rounds: [[start, end), …], from the server's round_starts when it sends them. */
function rounds(view) {
  const n = view.events.length;
  const starts = Array.isArray(view.round_starts) && view.round_starts.length ? view.round_starts : [0];
  const cuts = [...new Set(starts.filter((i) => i >= 0 && i < n))].sort((a, b) => a - b);
  if (!cuts.length || cuts[0] !== 0) cuts.unshift(0);
  return cuts.map((s, k) => [s, k + 1 < cuts.length ? cuts[k + 1] : n]).filter(([s, e]) => e > s);
}

/** The words' facts of an action (an event of the history, a decision's choice): the other
 * seat's name and the instant win. */
export function actionParams(a, names) {
  const other = a.other ?? null;
  return { name: other === null ? "" : names[other] ?? String(other), win: a.win ? t(`win.${a.win}`) : "" };
}

/** An event of the history that is not cards (protocol.py's EventView), in words, by its kind
 * (move.<kind>): a pass, a claim, a trade; a trade's cards, or how many when they are hidden. */
export function eventWords(e, names) {
  const cards = e.cards ?? (e.count ? `(${tn("web.cards", e.count)})` : "");
  return t(`move.${e.kind}`, { ...actionParams(e, names), cards });
}

/** The seat that made the last play of ``events`` (null: none). */
export function lastPlayer(events) {
  for (let i = events.length - 1; i >= 0; i--) if (events[i].kind === "play") return events[i].seat;
  return null;
}

/** The server's instant_win ("NAME: WIN") in words. */
export function instantWords(text) {
  const i = (text || "").lastIndexOf(": ");
  if (i < 0) return text || "";
  return t("web.instant_win", { name: text.slice(0, i), win: t(`win.${text.slice(i + 2)}`) });
}

/** The chop payments of the hand by when they were paid (the history's length then). */
function chopsAt(view) {
  const at = new Map();
  for (const p of view.payments || []) {
    if (p.kind !== "chop") continue;
    if (!at.has(p.at)) at.set(p.at, []);
    at.get(p.at).push(p);
  }
  return at;
}

export function renderHistory(box, view, names) {
  const paid = chopsAt(view);
  const groups = rounds(view);
  const items = groups.map(([start, end], k) => {
    const moves = view.events.slice(start, end);
    const last = k === groups.length - 1;
    const winner = !last || view.is_over ? lastPlayer(moves) : null;
    const title = groups.length > 1 || view.round_starts ? t("web.history.round", { n: k + 1 }) : t("web.history.moves");
    const head = h("div.round-head", {},
      h("span", { text: title }),
      winner !== null ? h("span.round-won", { text: t("web.history.won_by", { name: names[winner] }) }) : null);
    const list = h("ol.moves", {}, moves.map((e, i) => {
      const played = e.kind === "play";
      const words = `${names[e.seat]}: ${played ? playLabel(e.cards) : eventWords(e, names)}`;
      // a move the turn timer made for its player, or a bot (a bot's seat, an away player's):
      // marked, and said so
      const timer = e.timed_out ? t("web.room.timer_mark") : "";
      const bot = e.bot && !timer ? t("web.history.bot_mark") : "";
      const mark = timer || bot;
      const move = h(`li.move${played ? "" : ".quiet"}${timer ? ".timed-out" : ""}${bot ? ".by-bot" : ""}`, {
        "aria-label": mark ? `${words} (${mark})` : words,
      }, h("span.move-who", { text: names[e.seat] }),
      played ? cardsRow(e.cards, "hist") : h("span.move-text", { text: eventWords(e, names) }),
      timer ? h("span.timer-mark", { testid: "timer-mark", role: "img", title: timer, "aria-label": timer, text: "⏱" }) : null,
      // (its words are in the move's label already)
      bot ? h("span.bot-mark", { testid: "bot-mark", title: bot, "aria-hidden": "true" }, botFace()) : null);
      const pays = (paid.get(start + i + 1) || []).map((p) => h("li.move.pay", { testid: "history-payment" },
        h("span.pay-text", { text: paymentLine(p) })));
      return [move, ...pays];
    }).reverse().flat());  // the newest move first, its payments under it
    return h(`li.round${last && !view.is_over ? ".current" : ""}`, {}, head, list);
  });
  box.replaceChildren(...items.reverse());  // the round being played first: readable at a glance
}

/** On a phone, above the hand: the last three moves, the newest first (the whole history is
 * further down the page there). */
export function renderStrip(box, view, names) {
  const last = view.events.slice(-3).reverse();
  box.replaceChildren(...last.map((e) => h("span.strip-move", { testid: "strip-move" },
    h("b", { text: names[e.seat] }),
    e.kind === "play" ? cardsRow(e.cards, "hist") : h("span.move-text", { text: eventWords(e, names) }))));
  box.setAttribute("aria-label", t("web.history.last_moves"));
}
