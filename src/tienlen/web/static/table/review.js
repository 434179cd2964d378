// A finished hand reviewed (the end panel's "Review") on the stage's felt (stage.js), decision by
// decision: every hand face up as it stood, the play to beat, the seat's move raised in its hand
// and the coach's better one marked beside it, both also drawn as cards below with the verdict
// (good, inaccuracy, mistake, blunder: what it cost against the coach's best, in the units the
// rules pay; the hint's own moves starred) and the figures behind it folded in a detail. The
// server makes the review in its bot pool (GET /api/tables/{id}/records/{n}/review): "working…"
// until then. A seated player reviews their own seat (its token sent); a spectator of a public
// table chooses a seat.
import { cardsRow, cardsText } from "../lib/cards.js";
import { h } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { HttpError, tokenKey } from "../lib/net.js";
import { stage } from "./stage.js";

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
    text: t(`review.web.verdict.${d.cost.grade}`, costWords(d.cost, data)) });
}

/** What the move cost, with its 95% interval (under the figures). */
const costLine = (d, data) => h("p.review-figures", { testid: "review-cost", text: t("review.web.cost_ci", costWords(d.cost, data)) });

const moveWords = (move) => (move === "pass" ? t("move.pass") : cardsText(move));

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

async function fetchReview(tableId, hand, seat, me) {
  const headers = { "Accept-Language": document.documentElement.lang || "en" };
  const token = me !== null ? localStorage.getItem(tokenKey(tableId)) : null;
  if (token) headers["X-Tienlen-Seat"] = token;
  const res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/records/${hand}/review?seat=${seat}`, { headers });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new HttpError(data.detail || t("web.error.status", { status: res.status }), res.status);
  return data;
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** The review of hand ``hand`` of table ``tableId`` on the stage's felt, for ``me`` (a seat, or
 * null: a spectator, who chooses the seat). */
export function openReview(tableId, hand, names, me) {
  let seat = me ?? 0;
  const status = h("p.review-status", { testid: "review-status", role: "status", "aria-live": "polite" });
  const foot = h("div.review", { testid: "review-panel" }, status);
  const title = (name) => `${t("review.web.title")} · ${t("web.room.hand_no", { n: hand })}${name ? ` · ${name}` : ""}`;
  const load = async () => {
    status.textContent = t("review.web.working");
    status.setAttribute("role", "status");
    foot.replaceChildren(status);
    foot.setAttribute("aria-busy", "true");
    let data;
    try {
      data = await fetchReview(tableId, hand, seat, me);
    } catch (err) {
      status.textContent = capital(err.message);
      status.setAttribute("role", "alert");
      foot.removeAttribute("aria-busy");
      return;
    }
    foot.removeAttribute("aria-busy");
    stage().els.stageTitle.textContent = title(data.names[data.seat]);
    show(data);
  };
  const show = (data) => {
    const decisions = data.decisions;
    let i = 0;
    const step = h("p.review-step", { testid: "review-step", role: "status", "aria-live": "polite" });
    const body = h("div.review-body", { testid: "review-body" });
    const prev = h("button.small", { type: "button", testid: "review-prev", text: "◀", "aria-label": t("review.web.prev"), onclick: () => go(-1) });
    const next = h("button.small", { type: "button", testid: "review-next", text: "▶", "aria-label": t("review.web.next"), onclick: () => go(1) });
    const evaluated = decisions.filter((d) => d.played).length;
    const graded = GRADES.map((g) => [g, decisions.filter((d) => d.grade === g).length])
      .filter(([g, n]) => n > 0 || g === "good").map(([g, n]) => tn(`review.graded.${g}`, n)).join(", ");
    const hinted = decisions.filter((d) => d.hinted).length;
    const chooser = me === null ? h("label.review-seat", {}, h("span", { text: t("web.end.player") }), " ",
      h("select", { testid: "review-seat", onchange: (ev) => { seat = Number(ev.target.value); load(); } },
        names.map((n, s) => h("option", { value: String(s), text: n, selected: s === seat })))) : "";
    const who = me === null ? data.names[data.seat] : t("review.web.you");
    const render = () => {
      const d = decisions[i];
      const focused = document.activeElement;
      prev.disabled = i === 0;
      next.disabled = i >= decisions.length - 1;
      if (focused === prev || focused === next) (focused.disabled ? (prev.disabled ? next : prev) : focused).focus();
      if (!d) { step.textContent = capital(t("review.none")); body.replaceChildren(); return; }
      const name = data.names[data.seat];
      const played = d.move === "pass" ? (me === null ? t("web.replay.passed", { name }) : t("review.web.you_passed"))
        : (me === null ? t("review.web.they_played", { name, move: moveWords(d.move) }) : t("review.web.played", { move: moveWords(d.move) }));
      step.textContent = `${t("review.web.step", { i: i + 1, n: decisions.length })}: ${played}`;
      const better = d.played && !d.hinted && d.best && d.best.move !== d.move ? d.best.move : null;
      stage().draw({ names: data.names, viewer: data.seat, hands: d.hands, table: d.table, turn: data.seat,
        lead: t("web.stage.leads", { name: data.names[data.seat] }), marked: { seat: data.seat, played: d.move, better } });
      const lines = [];
      if (d.played) {
        lines.push(gradeMark(d, data));  // the verdict first, then the moves as cards
        lines.push(h("div.review-move", { testid: "review-played" }, h("span.review-who", { text: who }), moveCards(d.move)));
        if (better) lines.push(h("div.review-move.review-better", { testid: "review-best" }, h("span.review-who", { text: t("review.web.better") }), moveCards(better)));
        // the numbers behind the verdict, for whoever wants them
        const figures = [...(d.hinted ? [] : [costLine(d, data)]), estimateRow("review-played-figures", who, d.move, d.played, data)];
        if (!d.hinted) figures.push(estimateRow("review-best-figures", t("review.web.search"), d.best.move, d.best, data));
        lines.push(h("details.review-details", { testid: "review-details" }, h("summary", { text: t("review.web.figures") }), ...figures));
      } else {
        lines.push(h("p.review-fine", { testid: "review-mark", text: d.kind === "forced" ? t("review.web.forced") : t("review.web.unsearched", { why: t(`review.why.${d.kind}`) }) }));
      }
      body.replaceChildren(...lines);
    };
    const go = (by) => { i = Math.max(0, Math.min(decisions.length - 1, i + by)); render(); };
    foot.onkeydown = (ev) => {
      if (ev.target.tagName === "SELECT" || ev.target.tagName === "SUMMARY") return;
      if (ev.key === "ArrowLeft") { go(-1); ev.preventDefault(); }
      if (ev.key === "ArrowRight") { go(1); ev.preventDefault(); }
    };
    foot.replaceChildren(
      h("p.muted.review-summary", { testid: "review-summary", text: t("review.web.summary", { evaluated: tn("review.decisions", evaluated), grades: graded, hinted: tn("review.hinted", hinted) }) }),
      chooser, h("div.review-nav", {}, prev, step, next), body);
    render();
    next.focus();
  };
  stage().show({ title: title(me === null ? names[seat] : ""), foot });
  load();
}
