// A moment of a finished hand drawn on a felt of its own: the replay's (replay.js) and the
// review's (review.js). Every seat sits round the felt as at the table, its cards face up, the
// play to beat lies in the middle with who made it; below the felt, the moment's words and the
// controls the replay or the review puts there. A dialog over the page (the whole screen on a
// phone); on a replay's own page (/replay/ID/N, /shared/SECRET) it is the page itself.
import { cardsRow, playLabel } from "../lib/cards.js";
import { elements, h } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { seatPosition } from "./seats.js";

/** Where a seat at (x, y) percent of the felt is anchored: by its edge nearest the rail, so
 * that a side seat's cards stay inside the felt. */
function anchor(x, y) {
  const tx = x < 20 ? 0 : x > 80 ? -100 : -50;
  const ty = y < 25 ? 0 : y > 75 ? -100 : -50;
  return { left: `${3 + 0.94 * x}%`, top: `${3 + 0.94 * y}%`, transform: `translate(${tx}%, ${ty}%)`,
    side: tx !== -50 && ty === -50 };
}

/** The cards of ``text`` among ``hand`` (a review's move, the coach's best): their set. */
const cardSet = (text) => new Set((text && text !== "pass" ? text : "").split(" ").filter(Boolean));

export class Stage {
  constructor() {
    this.els = elements("stage", "stage-title", "stage-links", "stage-call", "stage-close", "stage-felt",
      "stage-seats", "stage-centre", "stage-foot");
    this.onClose = null;
    this.opener = null;  // where the focus goes back to once closed
    this.els.stageClose.addEventListener("click", () => this.close());
    this.els.stageCall.addEventListener("click", () => this.close());
    // Escape closes the dialog wherever the focus is (a button disabled under it drops it), and
    // the focus stays inside it while it is open (Tab does not wander to the page behind)
    document.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape" && this.open && !this.page) { ev.preventDefault(); this.close(); }
    });
    document.addEventListener("focusin", (ev) => {
      if (this.open && !this.page && !this.els.stage.contains(ev.target)) this.els.stage.focus();
    });
  }

  get open() { return !this.els.stage.hidden; }

  /** Show the stage titled ``title``, its foot ``foot`` (the replay's or the review's controls);
   * ``page``: the page is the stage (nothing to close back to); ``links``: beside the title. */
  show({ title, foot, links = [], page = false, onClose = null }) {
    const { stage, stageTitle, stageLinks, stageFoot, stageClose } = this.els;
    if (this.open && this.onClose) this.onClose();  // one stage at a time: the last one closes
    if (!this.open) this.opener = page ? null : document.activeElement;  // (not one inside it)
    this.page = page;
    this.onClose = onClose;
    stage.classList.toggle("page", page);
    stage.setAttribute("role", page ? "region" : "dialog");
    if (page) stage.removeAttribute("aria-modal"); else stage.setAttribute("aria-modal", "true");
    stageClose.hidden = page;
    this.els.stageCall.hidden = true;
    stageTitle.textContent = title;
    stageLinks.replaceChildren(...links);
    stageFoot.replaceChildren(foot);
    this.els.stageSeats.replaceChildren();
    this.els.stageCentre.replaceChildren();
    stage.hidden = false;
    document.body.classList.toggle("staged", !page);
    if (!page) stage.focus();
  }

  /** The live table calls the player back (their turn came while the dialog was open): a
   * button in the title's row that closes it; "" takes it away. */
  call(text) {
    const button = this.els.stageCall;
    const shown = Boolean(text) && this.open && !this.page;
    button.hidden = !shown;
    button.textContent = shown ? text : "";
  }

  close() {
    if (!this.open || this.page) return;
    this.els.stage.hidden = true;
    document.body.classList.remove("staged");
    const done = this.onClose;
    this.onClose = null;
    if (done) done();
    if (this.opener && this.opener.isConnected) this.opener.focus();
  }

  /**
   * Draw a moment: ``names`` (every seat's), ``viewer`` (the seat drawn at the bottom),
   * ``hands`` (each seat's cards, text), ``table`` (the play to beat, text, or null) and
   * ``tableSeat`` (who made it), ``turn`` (whose turn it is: null when over), ``lead`` (the
   * centre's line when nothing is to beat), ``places`` (each seat's place once out, or -1),
   * ``marked`` (a review's decision: { seat, played, better }, the cards so marked in that
   * seat's hand), ``stamp`` (a word stamped across the middle: a chop).
   */
  draw({ names, viewer = 0, hands, table = null, tableSeat = null, turn = null, lead = "", places = [],
    marked = null, stamp = "" }) {
    const n = names.length;
    const { stageSeats, stageCentre, stageFelt } = this.els;
    stageFelt.dataset.players = String(n);
    stageSeats.replaceChildren(...names.map((name, s) => {
      const r = (s - viewer + n) % n;
      const [x, y] = seatPosition(r, n);
      const at = anchor(x, y);
      const cards = (hands[s] || "").split(" ").filter(Boolean);
      const place = places[s] ?? -1;
      const here = marked && marked.seat === s;
      const classes = ["stage-seat", r === 0 ? "stage-low" : at.side ? "stage-side" : y < 50 ? "stage-high" : "stage-low"];
      if (turn === s) classes.push("turn");
      if (here) classes.push("decided");
      if (!cards.length) classes.push("done");
      const label = [name, cards.length ? tn("web.cards", cards.length) : t("web.stage.no_cards")];
      if (place >= 0) label.push(t("web.seat.out", { place: t(`place.${place + 1}`) }));
      if (turn === s) label.push(t("web.seat.to_play"));
      const seat = h(`div.${classes.join(".")}`, { testid: "stage-seat", dataset: { seat: String(s) }, role: "group",
        "aria-label": label.join(", ") });
      seat.style.left = at.left;
      seat.style.top = at.top;
      seat.style.transform = at.transform;
      const row = cardsRow(cards.join(" "), "on-stage");
      if (here) {
        const played = cardSet(marked.played), better = cardSet(marked.better);
        for (const c of row.children) {
          const card = c.dataset.card;
          if (played.has(card)) c.classList.add("played");
          if (better.has(card)) c.classList.add("better");
        }
      }
      seat.append(h("div.stage-plate", {},
        h("b", { text: name }),
        h("span.stage-count", { "aria-hidden": "true", text: cards.length ? String(cards.length) : "" }),
        place >= 0 ? h("span.mark.out", { text: t(`place.${place + 1}`) }) : "",
        turn === s ? h("span.stage-turn", { "aria-hidden": "true", text: here ? t("web.stage.decided") : "▶" }) : ""),
      cards.length ? row : "");
      return seat;
    }));
    const centre = [];
    if (table) {
      const row = cardsRow(table, "big");
      row.setAttribute("role", "img");
      row.setAttribute("aria-label", t("web.trick.label", { cards: playLabel(table), name: tableSeat === null ? "" : names[tableSeat] }));
      centre.push(row, h("p.stage-by", { text: tableSeat === null ? t("web.stage.to_beat")
        : t("web.trick.by", { name: names[tableSeat] }) }));
    } else if (lead) {
      centre.push(h("p.stage-by", { text: lead }));
    }
    if (stamp) centre.push(h("p.stage-stamp", { testid: "stage-stamp", text: stamp }));
    stageCentre.replaceChildren(...centre);
  }
}

let made = null;

/** The page's one stage. */
export function stage() {
  if (!made) made = new Stage();
  return made;
}
