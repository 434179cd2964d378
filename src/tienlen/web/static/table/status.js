// The dock's status line in words: whose turn it is, what the server asks this seat
// (view.decision), what a lead must hold, and how the hand ended for you.
import { cardsText } from "../lib/cards.js";
import { t, tn } from "../lib/i18n.js";
import { asked } from "./decision.js";
import { instantWords } from "./history.js";
import { placesOf } from "./seats.js";

export const MAX_LEGAL = 400;  // the server's cap on the legal plays it lists (views.MAX_LEGAL)

/** What the server says this seat is asked (``d``, view.decision, of a kind other than a play
 * in turn: protocol.py's Prompt) in words, web.prompt.<kind>, with the decision's facts: the
 * other seat, the cards to select. */
function promptWords(d, view, names) {
  const params = { name: names[d.to ?? -1] ?? "", cards: cardsText(view.table) };
  return d.count ? tn(`web.prompt.${d.kind}`, d.count, params) : t(`web.prompt.${d.kind}`, params);
}

/** Your lead: anything, or (the first lead of some rules) a play that holds the card every
 * legal play holds ("lead a play with 3♠ in it"), even when that card alone is the only lead.
 * A lead is free when every card of the hand may be led alone (the legal plays list the
 * singles first, so a list cut at MAX_LEGAL still says so). */
function leadWords(view) {
  const held = new Set(view.hand);
  const plays = view.legal.map((m) => m.split(" ")).filter((cards) => cards.every((c) => held.has(c)));
  if (!plays.length) return t("web.status.your_lead");
  const singles = new Set(plays.filter((p) => p.length === 1).map((p) => p[0]));
  const free = view.hand.every((c) => singles.has(c));
  const needed = plays[0].filter((c) => plays.every((p) => p.includes(c)));
  return needed.length && !free ? t("web.status.your_lead_with", { cards: cardsText(needed.join(" ")) }) : t("web.status.your_lead");
}

/** The status line for seat ``me`` (null: a spectator) of a hand in play or just over. */
export function statusText(view, me, names) {
  if (view.is_over) {
    const parts = [t("web.status.over", { name: names[placesOf(view)[0]] })];
    if (view.instant_win) parts.push(instantWords(view.instant_win) + ".");
    if (me !== null) {
      const u = view.scores[me];
      parts.push(u >= 0 ? tn("web.status.you_win_units", u) : tn("web.status.you_lose_units", -u));
    }
    return parts.join(" ");
  }
  const d = asked(view, me);
  if (d && d.kind === "play") return view.table ? t("web.status.your_turn") : leadWords(view);
  if (d && !d.out_of_turn) return promptWords(d, view, names);
  if (view.turn === null) return "";
  // whose turn it is (what you may do is the decision's)
  const mine = view.turn === me;
  let text;
  if (view.phase !== "play") {
    text = mine ? t("web.status.your_turn_phase", { phase: t(`web.phase_word.${view.phase}`) })
      : t("web.status.turn_phase", { name: names[view.turn], phase: t(`web.phase_word.${view.phase}`) });
  } else {
    text = mine ? t("web.status.your_turn") : t("web.status.turn", { name: names[view.turn] });
  }
  return d ? t("web.status.with_prompt", { text, prompt: promptWords(d, view, names) }) : text;
}
