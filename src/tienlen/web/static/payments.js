// Payments in words (§8, §11): who pays whom, how many units, for what; made from the
// structured facts the server sends (view.payments), as the terminal game says them.
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { place } from "./seats.js";

const SUITS = { s: "♠", c: "♣", d: "♦", h: "♥" };
const SEQUENCES = ["run", "chain", "triple_chain", "quad_chain"];

/** Cards' text with the suits' symbols: "Ts 2h" -> "10♠ 2♥". */
export function cardsText(text) {
  return (text || "").split(" ").filter(Boolean)
    .map((c) => `${c[0] === "T" ? "10" : c.slice(0, -1)}${SUITS[c.slice(-1)] || c.slice(-1)}`).join(" ");
}

/** A chopping play by its kind: "a four of a kind", "three consecutive pairs". */
function bombNoun(shape, ranks) {
  if (SEQUENCES.includes(shape)) return t(`noun.pattern.${shape}.exact`, { n: ranks <= 13 ? t(`num.${ranks}`) : ranks });
  return t(`noun.pattern.${shape}`);
}

/** The kind of a bomb left in hand, from its cards: four of one rank, or pairs in a row. */
function heldNoun(cards) {
  const list = (cards || "").split(" ").filter(Boolean);
  const ranks = new Set(list.map((c) => c.slice(0, -1)));
  return ranks.size === 1 ? bombNoun("quad", 1) : bombNoun("chain", ranks.size);
}

function units(n) { return tn("pay.units", n); }

export function paysWords(p, names, me) {
  if (p.payer === me) return t("pay.you_pay", { payee: names[p.payee], units: units(p.units) });
  if (p.payee === me) return t("pay.pays_you", { payer: names[p.payer], units: units(p.units) });
  return t("pay.pays", { payer: names[p.payer], payee: names[p.payee], units: units(p.units) });
}

function chopWords(c, names, me) {
  const params = { chopper: names[c.chopper], owner: names[c.owner], target: cardsText(c.target),
    bomb: bombNoun(c.bomb_shape, c.bomb_ranks) };
  if (c.chopper === me) return t("pay.chop.you", params);
  if (c.owner === me) return t("pay.chop.yours", params);
  return t("pay.chop", params);
}

/** What a payment is for, in a sentence. */
export function whatWords(p, names, me) {
  const n = names.length;
  switch (p.item) {
    case "chop": case "chain": {
      const chops = p.chops.map((c) => chopWords(c, names, me));
      if (chops.length <= 1) return chops[0] || t("pay.short.chop");
      return t("pay.chain", { chops: chops.join(t("pay.then")), items: p.chops.map((c) => c.units).join(" + ") });
    }
    case "place": return t("pay.place", { payer: place(p.places[0], n), payee: place(p.places[1], n) });
    case "cards": case "bombs": return tn(`pay.${p.item}`, p.count);
    case "bomb": return t("pay.bomb", { bomb: heldNoun(p.cards), cards: cardsText(p.cards) });
    case "two": return t("pay.two", { cards: cardsText(p.cards) });
    case "instant": return t("pay.instant", { win: t(`win.${p.win}`) });
    case "stake": case "no_play": case "cong": return t(`pay.${p.item}`);
    default: return t(`pay.short.${p.kind}`);
  }
}

/** "Bot 3 pays you 2 units: 4th place pays 1st place". */
export function paymentLine(p, names, me) {
  return t("pay.line", { pays: paysWords(p, names, me), what: whatWords(p, names, me) });
}

/** The end panel's list: every payment of the hand, itemised. */
export function paymentList(view, names, me) {
  return view.payments.map((p) => h(`li.payment${p.payer === me ? ".paid" : p.payee === me ? ".got" : ""}`,
    { testid: "payment", dataset: { payer: p.payer, payee: p.payee, units: p.units, kind: p.kind } },
    h("span.pay-units", { text: String(p.units), "aria-hidden": "true" }),
    h("span.pay-text", { text: paymentLine(p, names, me) })));
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
