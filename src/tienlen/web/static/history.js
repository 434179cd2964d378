// This hand's moves, grouped by round (a round ends when everyone else passed), with real cards.
import { cardsRow, isCards, playLabel } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { paymentLine } from "./payments.js";

/** The history's rounds: [[start, end), …], from the server's round_starts when it sends them. */
function rounds(view) {
  const n = view.history.length;
  const starts = Array.isArray(view.round_starts) && view.round_starts.length ? view.round_starts : [0];
  const cuts = [...new Set(starts.filter((i) => i >= 0 && i < n))].sort((a, b) => a - b);
  if (!cuts.length || cuts[0] !== 0) cuts.unshift(0);
  return cuts.map((s, k) => [s, k + 1 < cuts.length ? cuts[k + 1] : n]).filter(([s, e]) => e > s);
}

/** A move that is not cards, in words: pass, a claim, a trade. */
export function moveWords(text, names) {
  const [verb, ...rest] = (text || "").split(" ");
  if (verb === "pass" || verb === "decline" || verb === "done") return t(`move.${verb}`);
  if (verb === "claim") return t("move.claim", { win: t(`win.${rest[0]}`) });
  if (["offer", "answer", "return", "give"].includes(verb)) {
    return t(`move.${verb}`, { name: names[Number(rest[0])] ?? rest[0], cards: rest.slice(1).join(" ") });
  }
  if (verb === "accept" || verb === "refuse") return t(`move.${verb}`, { name: names[Number(rest[0])] ?? rest[0] });
  return text;
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

export function renderHistory(box, view, names, me = null) {
  const paid = chopsAt(view);
  const groups = rounds(view);
  const items = groups.map(([start, end], k) => {
    const moves = view.history.slice(start, end);
    const last = k === groups.length - 1;
    let winner = null;
    if (!last || view.is_over) {
      for (let i = moves.length - 1; i >= 0; i--) if (isCards(moves[i][1])) { winner = moves[i][0]; break; }
    }
    const title = groups.length > 1 || view.round_starts ? t("web.history.round", { n: k + 1 }) : t("web.history.moves");
    const head = h("div.round-head", {},
      h("span", { text: title }),
      winner !== null && (!last || view.is_over) ? h("span.round-won", { text: t("web.history.won_by", { name: names[winner] }) }) : null);
    const list = h("ol.moves", {}, moves.map(([seat, text], i) => {
      const played = isCards(text);
      const move = h(`li.move${played ? "" : ".quiet"}`, {
        "aria-label": `${names[seat]}: ${played ? playLabel(text) : moveWords(text, names)}`,
      }, h("span.move-who", { text: names[seat] }),
      played ? cardsRow(text, "hist") : h("span.move-text", { text: moveWords(text, names) }));
      const pays = (paid.get(start + i + 1) || []).map((p) => h("li.move.pay", { testid: "history-payment" },
        h("span.pay-text", { text: paymentLine(p, names, me) })));
      return [move, ...pays];
    }).flat());
    return h(`li.round${last && !view.is_over ? ".current" : ""}`, {}, head, list);
  });
  box.replaceChildren(...items.reverse());  // the round being played first: readable at a glance
}
