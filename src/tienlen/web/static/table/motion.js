// Moments at the table, drawn only while motion is on (prefs.js: the page's switch and the
// system's reduced motion): a play flying in from its seat, the deal, a round's cards swept to
// the round's winner, chips moving from payer to payee (a chop's, the hand's settlement), the
// stamp of a chop and a celebration for first place. Each is decoration over what the page already says in words (the status,
// the history, the toast), so nothing is lost with motion off; every element it adds is
// aria-hidden and removes itself.
import { h } from "../lib/dom.js";
import { motionOn } from "../lib/prefs.js";
import { seatPosition } from "./seats.js";

/** Where ``seat`` sits, in pixels from the felt's centre, seen from seat ``me`` (null: 0). */
export function seatOffset(seat, me, n, scale = 1) {
  const r = ((seat - (me ?? 0)) % n + n) % n;
  const [x, y] = seatPosition(r, n);
  const felt = document.getElementById("felt").getBoundingClientRect();
  return [((x - 50) / 100) * felt.width * scale, ((y - 50) / 100) * felt.height * scale];
}

/** A moment's element, for ``ms``: in the felt's own layer, which clips what flies past its
 * edge (confetti by a seat) so that the page never grows a sideways scroll. */
function overlay(cls, children = [], ms = 1200) {
  const box = h(`div.${cls}`, { "aria-hidden": "true" }, ...children);
  const felt = document.getElementById("felt");
  let layer = felt.querySelector(":scope > .moments");
  if (!layer) {
    layer = h("div.moments", { "aria-hidden": "true" });
    felt.append(layer);
  }
  layer.append(box);
  setTimeout(() => box.remove(), ms);
  return box;
}

/** The cards just played fly in from their seat (``row``: the trick's cards). */
export function land(row, seat, me, n) {
  if (!motionOn()) return;
  const [dx, dy] = seatOffset(seat, me, n, 0.7);
  row.style.setProperty("--dx", `${dx}px`);
  row.style.setProperty("--dy", `${dy}px`);
  row.classList.remove("landing");
  void row.offsetWidth;
  row.classList.add("landing");
}

/** A new hand: your cards dealt one by one, the others' fans dropped in. */
export function deal(handBox, seatsBox) {
  if (!motionOn()) return;
  [...handBox.children].forEach((card, i) => card.style.setProperty("--i", String(i)));
  for (const box of [handBox, seatsBox]) {
    box.classList.remove("dealing");
    void box.offsetWidth;
    box.classList.add("dealing");
  }
  setTimeout(() => { handBox.classList.remove("dealing"); seatsBox.classList.remove("dealing"); }, 1400);
}

/** A round is over: its last cards (``cards``: a row of card images) slide to its winner. */
export function sweep(cards, winner, me, n) {
  if (!motionOn() || winner === null) return;
  const [dx, dy] = seatOffset(winner, me, n, 0.8);
  const ghost = overlay("sweep", [cards], 900);
  ghost.style.setProperty("--dx", `${dx}px`);
  ghost.style.setProperty("--dy", `${dy}px`);
}

/** ``units`` chips move from the payer's seat to the payee's. */
export function chips(payer, payee, units, me, n) {
  if (!motionOn() || units <= 0) return;
  const [x0, y0] = seatOffset(payer, me, n, 0.8);
  const [x1, y1] = seatOffset(payee, me, n, 0.8);
  const count = Math.min(units, 6);
  const pile = [];
  for (let i = 0; i < count; i++) {
    const chip = h("span.chip");
    chip.style.setProperty("--x0", `${x0 + (i % 3) * 6}px`);
    chip.style.setProperty("--y0", `${y0 - i * 3}px`);
    chip.style.setProperty("--x1", `${x1 + (i % 3) * 6}px`);
    chip.style.setProperty("--y1", `${y1 - i * 3}px`);
    chip.style.setProperty("--i", String(i));
    pile.push(chip);
  }
  pile.push(h("span.chip-units", { text: `+${units}` }));
  const box = overlay("chips", pile, 1600);
  box.style.setProperty("--x1", `${x1}px`);
  box.style.setProperty("--y1", `${y1}px`);
}

/** The hand's settlement: for each payer and payee, their units in chips, one pair after
 * another. */
export function settle(payments, me, n) {
  if (!motionOn()) return;
  const owed = new Map();  // "payer>payee" -> what passes between them
  for (const p of payments) {
    const key = `${p.payer}>${p.payee}`;
    const pair = owed.get(key) || { payer: p.payer, payee: p.payee, units: 0 };
    pair.units += p.units;
    owed.set(key, pair);
  }
  [...owed.values()].forEach((p, i) => setTimeout(() => chips(p.payer, p.payee, p.units, me, n), 220 * i));
}

/** A chop lands: a stamp over the trick with its word ("Chop!"). */
export function stamp(text) {
  if (!motionOn()) return;
  overlay("stamp", [h("span", { text })], 1300);
}

/** The first player out: confetti round their seat and a banner. */
export function celebrate(seat, me, n, text) {
  if (!motionOn()) return;
  const [x, y] = seatOffset(seat, me, n, 0.85);
  const bits = [];
  const colours = ["#f4c04e", "#d23a3a", "#5fd38a", "#6aa8ff", "#ffffff"];
  for (let i = 0; i < 28; i++) {
    const bit = h("span.confetti");
    const a = (i / 28) * Math.PI * 2;
    const r = 60 + (i % 4) * 22;
    bit.style.setProperty("--tx", `${Math.cos(a) * r}px`);
    bit.style.setProperty("--ty", `${Math.sin(a) * r - 30}px`);
    bit.style.setProperty("--rot", `${(i * 47) % 360}deg`);
    bit.style.background = colours[i % colours.length];
    bits.push(bit);
  }
  const words = h(`span.celebrate-words${y < 0 ? ".below" : ""}`, { testid: "celebrate-words", text });
  const box = overlay("celebrate", [...bits, words], 2200);
  box.style.setProperty("--x", `${x}px`);
  box.style.setProperty("--y", `${y}px`);
}
