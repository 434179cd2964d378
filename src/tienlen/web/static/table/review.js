// A finished hand reviewed (the end panel's "Review"): each of a seat's decisions graded by the
// coach (good, inaccuracy, mistake, blunder: what it cost against the coach's best, in the units
// the rules pay), the hint's own moves starred, stepped forwards and back. The server
// makes the review in its bot pool (GET /api/tables/{id}/records/{n}/review): "working…" until
// then. A seated player reviews their own seat (its token sent); a spectator of a public table
// chooses a seat.
import { cardsRow } from "../lib/cards.js";
import { h } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { api, HttpError, tokenKey } from "../lib/net.js";

const pct = (x) => `${(100 * x).toFixed(1)}%`;
const signed = (x) => `${x >= 0 ? "+" : ""}${x.toFixed(2)}`;

const GRADES = ["good", "inaccuracy", "mistake", "blunder"];

/** An estimate's figures: the units, and the chance of going out first where the rules reward
 * it (that alone where they pay nothing), each with its 95% interval. */
function estimateWords(e, data) {
  const first = t("review.web.first", { first: pct(e.first), low: pct(e.first_ci[0]), high: pct(e.first_ci[1]) });
  const units = t("review.web.units", { units: signed(e.units), low: signed(e.units_ci[0]), high: signed(e.units_ci[1]) });
  if (data.judged_by === "first") return first;
  return data.first_shown ? `${units}, ${first}` : units;
}

/** What a move cost against the coach's best, with its interval, as the grade's line says it. */
function costWords(cost, data) {
  if (data.judged_by === "first") {
    const pts = (x) => (100 * x).toFixed(1);
    return { cost: t("review.cost.first", { n: pts(cost.mean) }), low: pts(cost.ci[0]), high: pts(cost.ci[1]) };
  }
  return { cost: t("review.cost.units", { n: cost.mean.toFixed(2) }), low: cost.ci[0].toFixed(2), high: cost.ci[1].toFixed(2) };
}

/** The decision's mark: the hint's move starred, else its grade and what it cost. */
function gradeMark(d, data) {
  if (d.hinted) return h("p.review-grade.review-hinted", { testid: "review-mark", text: t("review.web.hinted") });
  return h(`p.review-grade.review-${d.cost.grade}`, { testid: "review-mark", "data-grade": d.cost.grade,
    text: t(`review.web.grade.${d.cost.grade}`, costWords(d.cost, data)) });
}

const moveWords = (move) => (move === "pass" ? t("move.pass") : move);

/** A move as cards (a pass in words). */
const moveCards = (move) => (move === "pass" ? h("span.review-pass", { text: t("move.pass") }) : cardsRow(move, "hist"));

/** One line of the comparison: who (you, the coach), the move as cards, the first-place chance
 * as a bar with its 95% interval drawn across it where the rules reward going out first, and
 * the figures in words (for every reader). */
function estimateRow(testid, label, move, e, data) {
  const bar = data.first_shown || data.judged_by === "first" ? h("span.review-bar", { "aria-hidden": "true" },
    h("span.review-fill", { style: `width: ${(100 * e.first).toFixed(1)}%` }),
    h("span.review-ci", { style: `left: ${(100 * e.first_ci[0]).toFixed(1)}%; width: ${(100 * (e.first_ci[1] - e.first_ci[0])).toFixed(1)}%` })) : h("span");
  return h("div.review-row", { testid },
    h("span.review-who", { text: label }), moveCards(move), bar,
    h("span.review-figures", { text: estimateWords(e, data) }));
}

async function fetchReview(tableId, seat, me) {
  const records = await api(`/api/tables/${tableId}/records`);
  if (!records.length) throw new HttpError(t("web.records.none"), 404);
  const hand = records[records.length - 1].hand;  // the hand just finished
  const headers = { "Accept-Language": document.documentElement.lang || "en" };
  const token = me !== null ? localStorage.getItem(tokenKey(tableId)) : null;
  if (token) headers["X-Tienlen-Seat"] = token;
  const query = `?seat=${seat}`;
  const res = await fetch(`/api/tables/${tableId}/records/${hand}/review${query}`, { headers });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new HttpError(data.detail || t("web.error.status", { status: res.status }), res.status);
  return data;
}

/** The review panel inside ``box`` (the end panel), for ``me`` (a seat, or null: a spectator). */
export function openReview(box, tableId, names, me) {
  let panel = box.querySelector("#review");
  if (!panel) {
    panel = h("section.review", { id: "review", testid: "review-panel", "aria-labelledby": "review-title" });
    box.append(panel);
  }
  panel.hidden = false;
  let seat = me ?? 0;
  const load = async () => {
    const status = h("p.review-status", { testid: "review-status", role: "status", "aria-live": "polite", text: t("review.web.working") });
    panel.replaceChildren(h("h3", { id: "review-title", text: t("review.web.title") }), status);
    panel.setAttribute("aria-busy", "true");
    let data;
    try {
      data = await fetchReview(tableId, seat, me);
    } catch (err) {
      status.textContent = err.message.charAt(0).toUpperCase() + err.message.slice(1);
      status.setAttribute("role", "alert");
      panel.removeAttribute("aria-busy");
      return;
    }
    panel.removeAttribute("aria-busy");
    show(data);
  };
  const show = (data) => {
    const decisions = data.decisions;
    let i = 0;
    const step = h("p.review-step", { testid: "review-step", role: "status", "aria-live": "polite" });
    const body = h("div.review-body", { testid: "review-body" });
    const prev = h("button.small", { type: "button", testid: "review-prev", text: "←", "aria-label": t("review.web.prev"), onclick: () => go(-1) });
    const next = h("button.small", { type: "button", testid: "review-next", text: "→", "aria-label": t("review.web.next"), onclick: () => go(1) });
    const close = h("button.small", { type: "button", testid: "review-close", text: "×", "aria-label": t("review.web.close"), onclick: () => { panel.hidden = true; } });
    const evaluated = decisions.filter((d) => d.played).length;
    const graded = GRADES.map((g) => [g, decisions.filter((d) => d.grade === g).length])
      .filter(([g, n]) => n > 0 || g === "good").map(([g, n]) => tn(`review.graded.${g}`, n)).join(", ");
    const hinted = decisions.filter((d) => d.hinted).length;
    const chooser = me === null ? h("select", { testid: "review-seat", "aria-label": t("web.end.player"), onchange: (ev) => { seat = Number(ev.target.value); load(); } },
      names.map((n, s) => h("option", { value: String(s), text: n, selected: s === seat }))) : null;
    const render = () => {
      const d = decisions[i];
      prev.disabled = i === 0;
      next.disabled = i >= decisions.length - 1;
      if (!d) { const none = t("review.none"); step.textContent = none.charAt(0).toUpperCase() + none.slice(1); body.replaceChildren(); return; }
      step.textContent = `${t("review.web.step", { i: i + 1, n: decisions.length })}: ${t("review.web.played", { move: moveWords(d.move) })}`;
      const lines = [];
      if (d.played) {
        lines.push(gradeMark(d, data));  // the verdict first, then the figures behind it
        lines.push(estimateRow("review-played", me === null ? data.names[data.seat] : t("review.web.you"), d.move, d.played, data));
        if (!d.hinted) lines.push(estimateRow("review-best", t("review.web.search"), d.best.move, d.best, data));
      } else {
        lines.push(h("p.review-fine", { testid: "review-mark", text: d.kind === "forced" ? t("review.web.forced") : t("review.web.unsearched", { why: t(`review.why.${d.kind}`) }) }));
      }
      if (d.table) lines.push(h("p.muted", {}, `${t("review.web.to_beat")} `, cardsRow(d.table)));
      lines.push(...d.hands.map((hd, s) => h("div.replay-row", {},
        h("span.move-who", { text: `${data.names[s]}${s === data.seat ? " ◀" : ""}` }), cardsRow(hd))));
      body.replaceChildren(...lines);
    };
    const go = (by) => { i = Math.max(0, Math.min(decisions.length - 1, i + by)); render(); };
    panel.onkeydown = (ev) => {
      if (ev.key === "ArrowLeft") { go(-1); ev.preventDefault(); }
      if (ev.key === "ArrowRight") { go(1); ev.preventDefault(); }
      if (ev.key === "Escape") panel.hidden = true;
    };
    panel.replaceChildren(h("h3", { id: "review-title", text: `${t("review.web.title")}: ${data.names[data.seat]}` }),
      h("p.muted", { testid: "review-summary", text: t("review.web.summary", { evaluated: tn("review.decisions", evaluated), grades: graded, hinted: tn("review.hinted", hinted) }) }),
      chooser || "", h("div.review-nav", {}, prev, step, next, close), body);
    render();
    next.focus();
  };
  load();
}
