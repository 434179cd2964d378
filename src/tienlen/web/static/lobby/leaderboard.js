// The leaderboard (/leaderboard): one family's players with 20 rated hands or more, best first
// by rating; a switch between the families (its choice kept in the address: ?family=).
import { $, h } from "../lib/dom.js";
import { familyName, t } from "../lib/i18n.js";
import { api } from "../lib/net.js";
import { num, ratingText, signed } from "../lib/numbers.js";

function trend(x) {
  if (x === null || x === undefined) return h("td.trend.muted", { text: "–" });
  const cls = x > 0 ? "trend up" : x < 0 ? "trend down" : "trend";
  const arrow = x > 0 ? "▲ " : x < 0 ? "▼ " : "";
  return h("td", { className: cls, title: t("web.board.trend_label", { change: signed(x, 0) }) },
    h("span", { "aria-hidden": "true", text: arrow }), signed(x, 0));
}

function rows(board) {
  if (!board.rows.length) return h("p.muted", { testid: "board-empty", text: t("web.board.empty", { n: board.min_hands }) });
  const head = ["web.board.rank", "web.board.player", "web.board.rating", "web.board.hands",
    "web.board.firsts", "web.board.trend"];
  return h("div.table-scroll", {}, h("table.scores.board", { testid: "board" },
    h("caption.sr-only", { text: t("web.board.caption", { family: familyName(board.family) }) }),
    h("thead", {}, h("tr", {}, head.map((k, i) => h("th", { scope: "col", className: i >= 2 ? "num" : "", text: t(k) })))),
    h("tbody", {}, board.rows.map((r) => h("tr", { dataset: { rank: String(r.rank) } },
      h("td.rank", { text: num(r.rank, 0) }),
      h("th", { scope: "row" }, r.profile ? h("a", { href: r.profile, text: r.name })
        : h("span", { text: r.name }), r.profile || r.name === t("web.board.deleted") ? null
        : h("span.badge", { text: t("web.board.guest") })),
      h("td.num.rating", { testid: "board-rating", text: ratingText(r.rating) }),
      h("td.num", { text: num(r.hands, 0) }),
      h("td.num", { text: num(r.firsts, 0) }),
      trend(r.trend))))));
}

async function show(box, family) {
  const board = await api(`/api/leaderboard?family=${encodeURIComponent(family)}`);
  const tabs = h("div.family-switch", { role: "group", "aria-label": t("web.board.families") },
    board.families.map((f) => h("button.small", { type: "button", testid: `family-${f}`, "aria-pressed": String(f === board.family),
      text: familyName(f), onclick: () => {
        history.replaceState(null, "", f === "southern" ? "/leaderboard" : `/leaderboard?family=${f}`);
        show(box, f);
      } })));
  box.replaceChildren(h("section.panel", {},
    h("h1", { text: t("web.board.title") }),
    h("p.muted", { text: t("web.board.explain", { n: board.min_hands }) }),
    tabs, rows(board),
    h("p", {}, h("a", { href: "/me", text: t("web.profile.title") }), " · ", h("a", { href: "/", text: t("web.profile.lobby") }))));
}

export async function leaderboardPage() {
  const box = $("leaderboard");
  box.hidden = false;
  document.title = `${t("web.board.title")} · Tiến Lên`;
  const family = new URLSearchParams(location.search).get("family") || "southern";
  try {
    await show(box, family);
  } catch (err) {
    await show(box, "southern");
  }
}
