// Cards drawn as SVG by the project: rank and suit in the corners, a large suit in the middle.
// Every card shown has a text alternative ("queen of spades"); backs say how many they stand for.
import { t, tn } from "./i18n.js";

const SUITS = { s: "♠", c: "♣", d: "♦", h: "♥" };
const NS = "http://www.w3.org/2000/svg";

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
 * "… your 2♥ with …" (the terminal's move_text): a hint's reason, a payment's words. */
export function cardWords(text) {
  return (text || "").split(" ").map((word) => {
    const m = CARD_WORD.exec(word);
    return m ? `${m[1]}${cardText(m[2])}${m[3]}` : word;
  }).join(" ");
}

export function cardLabel(card) {
  const rank = card.slice(0, -1), suit = card.slice(-1);
  return t("card.name", { rank: t(`rank.${rank}`), suit: t(`suit.${suit}`) });
}

/** The cards of a play as words: "5 of spades, 5 of hearts". */
export function playLabel(text) {
  return (text || "").split(" ").filter(Boolean).map(cardLabel).join(", ");
}

function el(name, attrs, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

export function cardSvg(card) {
  const rank = card.slice(0, -1), suit = card.slice(-1);
  const shown = rank === "T" ? "10" : rank;
  const red = suit === "d" || suit === "h";
  const color = `${red ? "card-red" : "card-black"} suit-${suit}`;  // suit-*: the four-colour deck
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg", "aria-hidden": "true",
    focusable: "false" });
  svg.append(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 6, class: "card-face" }));
  svg.append(el("text", { x: 5, y: 19, class: `card-rank ${color}` }, shown));
  svg.append(el("text", { x: 5.5, y: 35, class: `card-suit-small ${color}` }, SUITS[suit]));
  svg.append(el("text", { x: 36, y: 70, class: `card-suit-big ${color}`, "text-anchor": "middle" },
    SUITS[suit]));
  return svg;
}

export function cardBack() {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg back", "aria-hidden": "true",
    focusable: "false" });
  svg.append(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 6, class: "card-back" }));
  svg.append(el("rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, class: "card-back-inner" }));
  svg.append(el("path", { d: "M30 22 L44 42 L30 62 L16 42 Z", class: "card-back-mark" }));
  return svg;
}

/** One card shown (not chosen): an image named by its text alternative. */
export function cardImage(card) {
  const span = document.createElement("span");
  span.className = "card-static";
  span.dataset.card = card;
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", cardLabel(card));
  span.title = cardLabel(card);
  span.append(cardSvg(card));
  return span;
}

export function cardsRow(text, cls = "mini") {
  const row = document.createElement("span");
  row.className = `cards ${cls}`;
  for (const card of (text || "").split(" ").filter(Boolean)) row.append(cardImage(card));
  return row;
}

/** An opponent's hand: a fan of card backs (at most ``shown`` drawn), named by its count. */
export function backsFan(count, shown = 13) {
  const fan = document.createElement("span");
  fan.className = "fan";
  fan.setAttribute("role", "img");
  fan.setAttribute("aria-label", tn("web.cards_in_hand", count));
  const n = Math.min(count, shown);
  for (let i = 0; i < n; i++) {
    const back = document.createElement("span");
    back.className = "fan-card";
    const spread = n > 1 ? (i - (n - 1) / 2) / ((n - 1) / 2) : 0; // -1 … 1
    back.style.setProperty("--rot", `${(spread * Math.min(28, 4 * n)).toFixed(1)}deg`);
    back.style.setProperty("--lift", `${(Math.abs(spread) * Math.abs(spread) * 6).toFixed(1)}px`);
    back.append(cardBack());
    fan.append(back);
  }
  return fan;
}
