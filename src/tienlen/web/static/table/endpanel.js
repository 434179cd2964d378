// The end of a hand: places, units won and lost, and every card each player still held; the
// payments, Replay and Review, and the next hand's button with who it waits for and its countdown.
import { cardsRow } from "../lib/cards.js";
import { elements, h, onUsableClick, setEnabled } from "../lib/dom.js";
import { listAnd, t, tn } from "../lib/i18n.js";
import { api } from "../lib/net.js";
import { ratingText, signed } from "../lib/numbers.js";
import { instantWords } from "./history.js";
import { paymentList } from "./payments.js";
import { replayHand } from "./replay.js";
import { openReview } from "./review.js";
import { place, placesOf } from "./seats.js";

export class EndPanel {
  constructor() {
    this.els = elements("end", "next-hand", "end-ready", "end-countdown", "end-wait");
  }

  show(over) { this.els.end.hidden = !over; }

  focus() { this.els.nextHand.focus(); }

  /** The hand ``view`` of table ``info`` just over, seen from seat ``me`` (null: watching). */
  render(info, view, names, me, offset) {
    renderEnd(this.els.end, view, names, me);
    endTools(this.els.end, info, names, me);
    ratingLine(this.els.end, info.id, me, info.hand_no);
    this.renderNext(info, view, names, me, offset);
  }

  /** The next-hand button and who the next hand waits for: "Waiting for Minh…" once you asked. */
  renderNext(info, view, names, me, offset) {
    const ready = info.ready || [];
    const players = info.seats.filter((s) => s.kind === "human" && !s.bot_playing).map((s) => s.seat);
    const waiting = players.filter((s) => !ready.includes(s));
    const asked = me !== null && ready.includes(me);
    const btn = this.els.nextHand;
    btn.hidden = me === null;
    btn.classList.toggle("asked", asked);
    btn.textContent = !asked ? t("web.end.next") : waiting.length
      ? t("web.end.waiting_for", { names: listAnd(waiting.map((s) => names[s])) }) : t("web.end.dealing");
    setEnabled(btn, !asked, t("web.end.asked_why"));
    const others = ready.filter((s) => s !== me);
    const line = !asked && others.length ? tn("web.end.ready", others.length, { names: listAnd(others.map((s) => names[s])) })
      : (players.length > 1 && !ready.length ? (info.next_hand_after ? t("web.end.rule", { s: info.next_hand_after }) : t("web.end.rule_all")) : "");
    this.els.endReady.textContent = line;
    this.tick(info, view, offset);
  }

  /** The countdown to the next hand, under the button (none when no countdown runs);
   * ``offset``: the server's clock less this one, in seconds. */
  tick(info, view, offset) {
    const at = view && view.is_over ? info.next_hand_at ?? null : null;
    const box = this.els.endCountdown;
    let text = "";
    if (at !== null) {
      const secs = Math.ceil(Math.max(0, at - (Date.now() / 1000 + offset)));
      text = t("web.end.deal_in", { time: `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}` });
      box.setAttribute("aria-label", tn("web.end.deal_in_label", secs));
    }
    if (box.textContent !== text) box.textContent = text;
    this.els.endWait.hidden = !text && !this.els.endReady.textContent;
  }

  /** Next hand (``onNext``), only while usable. */
  wire(onNext) { onUsableClick(this.els.nextHand, onNext); }
}

function renderEnd(box, view, names, me) {
  const rows = placesOf(view).map((s, i) => {
    const units = view.scores[s];
    const left = view.revealed ? view.revealed[s] : [];
    return h(`tr${s === me ? ".me" : ""}`, { testid: "end-row", dataset: { seat: s } },
      h("td.place", { text: place(i, view.counts.length) }),
      h("th.end-who", { scope: "row", text: s === me ? t("web.you_suffix", { name: names[s] }) : names[s] }),
      h(`td.units.${units > 0 ? "won" : units < 0 ? "lost" : "even"}`, {
        testid: "end-units", text: `${units > 0 ? "+" : ""}${units}`,
      }),
      h("td.left", { testid: "end-cards" },
        left.length ? [h("span.sr-only", { text: tn("web.end.cards_left", left.length) }),
          cardsRow(left.join(" "), "held")] : h("span.none", { text: t("web.end.none") })));
  });
  const winner = names[view.finish_order[0] ?? placesOf(view)[0]];
  box.querySelector("#end-title").textContent = me !== null && view.finish_order[0] === me
    ? t("end.you_win") : t("end.wins", { name: winner });
  box.querySelector("#end-instant").textContent = instantWords(view.instant_win);
  box.querySelector("#end-rows").replaceChildren(...rows);
  const payments = paymentList(view, me);
  box.querySelector("#end-payments").replaceChildren(...payments);
  box.querySelector("#end-pay").hidden = !payments.length;
  moreBelow(box.querySelector(".end-scroll"));
}

/** How the hand moved your rating (in the table's rules), under the title ("Your rating:
 * 1512 (+12)", "?" while provisional), asked of the server once a hand; nothing at an unrated table, nor to a
 * spectator. */
async function ratingLine(box, tableId, me, handNo) {
  const line = box.querySelector("#end-rating");
  const whose = `${tableId}:${me}:${handNo}`;
  if (!line || line.dataset.whose === whose) return;
  line.dataset.whose = whose;
  line.hidden = true;
  if (me === null || !tableId) return;
  let moved;
  try {
    moved = await api(`/api/me/hands/${encodeURIComponent(tableId)}/${handNo}/rating`);
  } catch {
    return;  // not a rated hand of yours
  }
  if (line.dataset.whose !== whose) return;  // another hand's by now
  const change = h(`span.change.${moved.change > 0 ? "won" : moved.change < 0 ? "lost" : "even"}`,
    { testid: "end-rating-change", text: signed(moved.change, 0) });
  line.replaceChildren(t("web.end.rating", { rating: ratingText(moved.after, moved.provisional) }),
    " (", change, ")");
  line.hidden = false;
}

/** The hand just finished, on the stage's felt: "Replay" (replay.js) and "Review", decision by
 * decision against the coach (review.js: a seated player's own seat, a spectator's choice).
 * In the title's row: no height taken. */
function endTools(box, info, names, me) {
  let tools = box.querySelector(".end-tools");
  if (!tools) {
    tools = h("span.end-tools", {},
      h("button.small", { id: "end-replay", type: "button", testid: "end-replay", text: t("web.replay.title") }),
      h("button.small", { id: "end-review", type: "button", testid: "end-review", text: t("review.web.title") }));
    box.querySelector("#end-title").after(tools);
  }
  const [replay, review] = tools.children;
  const hand = info.hand_no;
  replay.setAttribute("aria-label", t("web.records.replay_label", { n: hand }));
  replay.onclick = () => replayHand(info.id, hand, me);
  review.setAttribute("aria-label", t("review.web.label_now"));
  review.onclick = () => openReview(info.id, hand, names, me);
}

/** Where the panel must scroll (a small screen, many payments): a fade and "more below" say
 * so until the end is reached. Judged again whenever it scrolls or the box or what it holds
 * changes size (the panel's entrance, the cards' rows filled in after the first frame). */
function moreBelow(scroll) {
  if (!scroll) return;
  const mark = () => scroll.classList.toggle("more", scroll.scrollHeight - scroll.scrollTop - scroll.clientHeight > 4);
  if (!scroll.dataset.watched) {
    scroll.dataset.watched = "1";
    scroll.addEventListener("scroll", mark, { passive: true });
    const resized = new ResizeObserver(mark);
    resized.observe(scroll);
    for (const part of scroll.children) resized.observe(part);  // the table, the payments
  }
  requestAnimationFrame(mark);
}
