// The end of a hand: places, units won and lost, and every card each player still held.
import { cardsRow } from "./cards.js";
import { h, plural } from "./dom.js";
import { place, placesOf } from "./seats.js";

export { placesOf };

export function renderEnd(box, view, names, me) {
  const rows = placesOf(view).map((s, i) => {
    const units = view.scores[s];
    const left = view.revealed ? view.revealed[s] : [];
    return h(`tr${s === me ? ".me" : ""}`, { testid: "end-row", dataset: { seat: s } },
      h("td.place", { text: place(i) }),
      h("th.end-who", { scope: "row", text: names[s] + (s === me ? " (you)" : "") }),
      h(`td.units.${units > 0 ? "won" : units < 0 ? "lost" : "even"}`, {
        testid: "end-units", text: `${units > 0 ? "+" : ""}${units}`,
      }),
      h("td.left", { testid: "end-cards" },
        left.length ? [h("span.sr-only", { text: `${plural(left.length, "card")} left: ` }),
          cardsRow(left.join(" "), "held")] : h("span.none", { text: "none" })));
  });
  const winner = names[view.finish_order[0] ?? placesOf(view)[0]];
  box.querySelector("#end-title").textContent = me !== null && view.finish_order[0] === me
    ? "You win the hand!" : `${winner} wins the hand`;
  box.querySelector("#end-instant").textContent = view.instant_win ? `Instant win: ${view.instant_win}` : "";
  box.querySelector("#end-rows").replaceChildren(...rows);
}
