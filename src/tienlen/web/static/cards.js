// Cards drawn as SVG by the project: rank and suit in the corners, a large suit in the middle.
const SUITS = { s: "♠", c: "♣", d: "♦", h: "♥" };
const SUIT_NAMES = { s: "spades", c: "clubs", d: "diamonds", h: "hearts" };
const RANK_NAMES = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };
const NS = "http://www.w3.org/2000/svg";

export function cardLabel(card) {
  const rank = card.slice(0, -1), suit = card.slice(-1);
  return `${RANK_NAMES[rank] || rank} of ${SUIT_NAMES[suit]}`;
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
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg", "aria-hidden": "true" });
  svg.append(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-face" }));
  const color = red ? "card-red" : "card-black";
  svg.append(el("text", { x: 6, y: 18, class: `card-rank ${color}` }, shown));
  svg.append(el("text", { x: 6, y: 32, class: `card-suit-small ${color}` }, SUITS[suit]));
  svg.append(el("text", { x: 34, y: 62, class: `card-suit-big ${color}`, "text-anchor": "middle" }, SUITS[suit]));
  return svg;
}

export function cardBack() {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg back", "aria-hidden": "true" });
  svg.append(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-back" }));
  svg.append(el("rect", { x: 7, y: 7, width: 46, height: 70, rx: 4, class: "card-back-inner" }));
  return svg;
}

export function cardsRow(text, cls = "mini") {
  const row = document.createElement("span");
  row.className = `cards ${cls}`;
  for (const card of (text || "").split(" ").filter(Boolean)) {
    const span = document.createElement("span");
    span.className = "card-static";
    span.dataset.card = card;
    span.title = cardLabel(card);
    span.append(cardSvg(card));
    row.append(span);
  }
  return row;
}
