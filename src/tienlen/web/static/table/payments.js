// Payments (§8, §11) as the page shows them. Their words come from the server, in the page's
// language (view.payments[].words: tienlen.paywords, the terminal game's own words); the page
// keeps the numbers and seats for its layout and draws the words' cards with the suits'
// symbols, as the terminal does.
import { cardWords } from "../lib/cards.js";
import { h } from "../lib/dom.js";

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
