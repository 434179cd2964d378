// Payments (§8, §11) as the page shows them. Their words come from the server, in the page's
// language (view.payments[].words: tienlen.paywords, the terminal game's own words); the page
// keeps the numbers and seats for its layout and draws the words' cards with the suits'
// symbols, as the terminal does.
import { h } from "../lib/dom.js";

const SUITS = { s: "♠", c: "♣", d: "♦", h: "♥" };
// a card word of a sentence, with the punctuation around it (tui/widgets.py's _CARD_WORD)
const CARD_WORD = /^([('"]*)((?:10|[3-9TJQKA2])[scdh])([.,:;!?)'"]*)$/;

/** A card's text with its suit's symbol: "Ts" -> "10♠". */
function cardText(c) {
  return `${c[0] === "T" ? "10" : c.slice(0, -1)}${SUITS[c.slice(-1)] || c.slice(-1)}`;
}

/** Cards' text with the suits' symbols: "Ts 2h" -> "10♠ 2♥". */
export function cardsText(text) {
  return (text || "").split(" ").filter(Boolean).map(cardText).join(" ");
}

/** A sentence with its card words written with the suits' symbols: "… your 2h with …" ->
 * "… your 2♥ with …" (the terminal's move_text). */
export function cardWords(text) {
  return (text || "").split(" ").map((word) => {
    const m = CARD_WORD.exec(word);
    return m ? `${m[1]}${cardText(m[2])}${m[3]}` : word;
  }).join(" ");
}

/** "Bot 3 pays you 2 units: 4th place pays 1st place", as the server said it for this seat. */
export function paymentLine(p) {
  return cardWords(p.words);
}

/** The end panel's list: every payment of the hand, itemised. */
export function paymentList(view, me) {
  return view.payments.map((p) => h(`li.payment${p.payer === me ? ".paid" : p.payee === me ? ".got" : ""}`,
    { testid: "payment", dataset: { payer: p.payer, payee: p.payee, units: p.units, kind: p.kind } },
    h("span.pay-units", { text: String(p.units), "aria-hidden": "true" }),
    h("span.pay-text", { text: paymentLine(p) })));
}

/** The payments made since ``before`` (the same hand's earlier view, or null: none new). */
export function newPayments(before, view) {
  const known = before && before.payments ? before.payments.length : (view.payments || []).length;
  return (view.payments || []).slice(known);
}

/** The chop payments among them. */
export function newChopPayments(before, view) {
  return newPayments(before, view).filter((p) => p.kind === "chop");
}
