// A finished hand reviewed (the end panel's "Review"): each of a seat's decisions with what the
// search bot expects after it and after its own best move, stepped forwards and back. The server
// makes the review in its bot pool (GET /api/tables/{id}/records/{n}/review): "working…" until
// then. A seated player reviews their own seat (its token sent); a spectator of a public table
// chooses a seat.
import { cardsRow } from "../lib/cards.js";
import { h } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { api, HttpError, tokenKey } from "../lib/net.js";

const pct = (x) => `${(100 * x).toFixed(1)}%`;
const signed = (x) => `${x >= 0 ? "+" : ""}${x.toFixed(2)}`;

function estimateWords(e) {
  return `${t("review.web.first", { first: pct(e.first), low: pct(e.first_ci[0]), high: pct(e.first_ci[1]) })}, `
    + t("review.web.units", { units: signed(e.units), low: signed(e.units_ci[0]), high: signed(e.units_ci[1]) });
}

const moveWords = (move) => (move === "pass" ? t("move.pass") : move);

/** A move as cards (a pass in words). */
const moveCards = (move) => (move === "pass" ? h("span.review-pass", { text: t("move.pass") }) : cardsRow(move, "hist"));

/** One line of the comparison: who (you, search), the move as cards, the first-place chance as
 * a bar with its 95% interval drawn across it, and the figures in words (for every reader). */
function estimateRow(testid, label, move, e, byUnits) {
  const bar = h("span.review-bar", { "aria-hidden": "true" },
    h("span.review-fill", { style: `width: ${(100 * e.first).toFixed(1)}%` }),
    h("span.review-ci", { style: `left: ${(100 * e.first_ci[0]).toFixed(1)}%; width: ${(100 * (e.first_ci[1] - e.first_ci[0])).toFixed(1)}%` }));
  return h(`div.review-row${byUnits ? ".by-units" : ""}`, { testid },
    h("span.review-who", { text: label }), moveCards(move), bar,
    h("span.review-figures", { text: estimateWords(e) }));
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
    const losses = decisions.filter((d) => d.loss).length;
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
        const byUnits = data.judged_by === "units";
        lines.push(estimateRow("review-played", me === null ? data.names[data.seat] : t("review.web.you"), d.move, d.played, byUnits));
        lines.push(estimateRow("review-best", t("review.web.search"), d.best.move, d.best, byUnits));
        lines.push(h(`p.${d.loss ? "review-loss" : "review-fine"}`, { testid: "review-mark", text: d.loss ? `✗ ${t("review.web.loss")}` : t("review.web.fine") }));
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
      h("p.muted", { testid: "review-summary", text: t("review.web.summary", { losses: tn("review.losses", losses), evaluated: tn("review.decisions", evaluated) }) }),
      chooser || "", h("div.review-nav", {}, prev, step, next, close), body);
    render();
    next.focus();
  };
  load();
}
