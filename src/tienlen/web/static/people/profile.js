// A player's profile (/p/NAME) and the player's own hands and ratings (/me, section#me-profile):
// ratings per family with their curves (inline SVG, its numbers in a table too), hands played,
// first places, the last hands with their records and replays.
import { $, h } from "../lib/dom.js";
import { familyName, lang, seatName, t, tableTitle } from "../lib/i18n.js";
import { num, ratingText } from "../lib/numbers.js";
import { friendButton } from "./friends.js";
import { reportBlockButtons } from "./moderation.js";
import { api } from "../lib/net.js";

function when(at) {
  return new Intl.DateTimeFormat(lang, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" })
    .format(new Date(at * 1000));
}

const SVG = "http://www.w3.org/2000/svg";
function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

/** The rating's curve: the rating after each rated hand, and behind it the band of its doubt
 * (the rating less and plus its spread), narrowing as the hands teach the model more. */
function curveSvg(r, id) {
  const pts = r.curve;
  const W = 560, H = 170, L = 48, R = 10, T = 10, B = 24;
  const lows = pts.map((p) => p.rating - p.spread), highs = pts.map((p) => p.rating + p.spread);
  let lo = Math.floor(Math.min(...lows) / 50) * 50, hi = Math.ceil(Math.max(...highs) / 50) * 50;
  if (hi - lo < 100) { lo -= 50; hi += 50; }
  const first = pts[0].hands, last = pts[pts.length - 1].hands;
  const x = (n) => L + (last === first ? (W - L - R) / 2 : (n - first) / (last - first) * (W - L - R));
  const y = (v) => T + (hi - v) / (hi - lo) * (H - T - B);
  const band = [...pts.map((p) => `${x(p.hands)},${y(p.rating + p.spread)}`),
    ...pts.slice().reverse().map((p) => `${x(p.hands)},${y(p.rating - p.spread)}`)].join(" ");
  const line = pts.map((p) => `${x(p.hands)},${y(p.rating)}`).join(" ");
  const title = t("web.profile.curve", { family: familyName(r.family) });
  const desc = t("web.profile.curve_desc", { first: ratingText(pts[0].rating), from: first,
    last: ratingText(pts[pts.length - 1].rating), to: last });
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "curve", "aria-labelledby": `${id}-t ${id}-d`,
    "data-testid": "rating-curve" },
    s("title", { id: `${id}-t` }, title), s("desc", { id: `${id}-d` }, desc));
  for (const v of [lo, (lo + hi) / 2, hi]) {
    svg.append(s("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }),
      s("text", { x: L - 6, y: y(v) + 4, class: "axis", "text-anchor": "end" }, ratingText(v)));
  }
  svg.append(s("text", { x: L, y: H - 6, class: "axis" }, String(first)),
    s("text", { x: W - R, y: H - 6, class: "axis", "text-anchor": "end" }, String(last)));
  if (pts.length > 1) svg.append(s("polygon", { points: band, class: "band" }), s("polyline", { points: line, class: "line" }));
  else svg.append(s("line", { x1: x(first), x2: x(first), y1: y(highs[0]), y2: y(lows[0]), class: "band-bar" }));
  const lastPt = pts[pts.length - 1];
  svg.append(s("circle", { cx: x(lastPt.hands), cy: y(lastPt.rating), r: 4, class: "dot" }));
  return svg;
}

function curveTable(r) {
  return h("details.curve-numbers", {},
    h("summary", { text: t("web.profile.curve_numbers") }),
    h("table.scores", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("web.profile.after") }),
        h("th", { scope: "col", text: t("web.board.rating") }))),
      h("tbody", {}, r.curve.slice().reverse().map((p) => h("tr", {},
        h("th", { scope: "row", text: String(p.hands) }), h("td", { text: ratingText(p.rating) }))))));
}

function ratingCard(r, i) {
  const provisional = r.provisional
    ? h("p.provisional", { testid: "provisional", text: t("web.profile.provisional", { n: r.hands, min: 20 }) }) : null;
  return h("article.rating-card", { testid: `rating-${r.family}` },
    h("h3", { text: familyName(r.family) }),
    h("div.rating-figures", {},
      h("p.rating-big", {}, h("span.sr-only", { text: `${t("web.profile.rating")}: ` }),
        h("span", { testid: "rating-value", text: ratingText(r.rating, r.provisional) })),
      h("div", {},
        h("p.muted", { text: t("web.profile.rated_hands", { n: r.hands, firsts: r.firsts }) }),
        provisional)),
    curveSvg(r, `curve-${i}`), curveTable(r));
}

/** The table of a hand played, named for its people in the reader's words (its id only where
 * the hand's table is not known). */
function handTable(r) {
  const people = r.players.filter((n) => !/^Bot \d+$/.test(n));
  return r.table_name ? tableTitle({ name: r.table_name, title: r.title, people }) : r.table;
}

function recentTable(recent) {
  if (!recent.length) return h("p.muted", { testid: "no-hands", text: t("web.profile.none") });
  const names = (players) => players.map((n) => seatName({ kind: /^Bot \d+$/.test(n) ? "bot" : "human", name: n })).join(", ");
  return h("div.table-scroll", {}, h("table.scores.recent", { testid: "recent-hands" },
    h("thead", {}, h("tr", {}, ...["web.profile.when", "web.profile.table", "web.profile.place", "web.profile.players",
      "web.profile.family"].map((k) => h("th", { scope: "col", text: t(k) })),
      h("th", { scope: "col" }, h("span.sr-only", { text: t("web.profile.record") })))),
    h("tbody", {}, recent.map((r) => h("tr", { dataset: { place: String(r.place) } },
      h("td.when", { text: when(r.at) }),
      h("th", { scope: "row", text: t("web.profile.hand", { table: handTable(r), n: r.hand }) }),
      h("td.place", { text: t("web.profile.place_of", { place: r.place, n: r.players.length || "?" }) }),
      h("td.players", { text: names(r.players) }),
      h("td", { text: r.family ? familyName(r.family) : t("web.profile.unrated") }),
      h("td.links", {},
        r.replay ? h("a", { href: r.replay, text: t("web.profile.replay"), "aria-label": t("web.profile.replay_label", { n: r.hand, table: handTable(r) }) }) : "",
        " ",
        h("a.record-link", { href: r.record, download: "", text: t("web.profile.record"), "aria-label": t("web.profile.record_label", { n: r.hand, table: handTable(r) }) })))))));
}

/** The people the player sat with lately (their own profile only): a link to an account's
 * profile, the hands played together, the last one's time. */
function opponentsTable(opponents) {
  if (!opponents.length) return h("p.muted", { testid: "no-opponents", text: t("web.profile.no_opponents") });
  return h("div.table-scroll", {}, h("table.scores.opponents", { testid: "recent-opponents" },
    h("thead", {}, h("tr", {}, ...["web.profile.opponent", "web.profile.together", "web.profile.last_together"]
      .map((k) => h("th", { scope: "col", text: t(k) })))),
    h("tbody", {}, opponents.map((o) => h("tr", {},
      h("th", { scope: "row" }, o.profile ? h("a", { href: o.profile, text: o.name }) : o.name),
      h("td", { text: num(o.hands, 0) }),
      h("td.when", { text: when(o.at) }))))));
}

/** A profile's sections: who, the totals, the ratings, the last hands (and, on the player's
 * own, the recent opponents). */
export function renderProfile(box, p, heading = "h1", own = false) {
  box.replaceChildren(
    h("section.panel.profile-head", {},
      h(heading, { testid: "profile-name", text: p.name }),
      h("span.badge", { text: p.account ? t("web.profile.account") : t("web.profile.guest") }),
      h("dl.totals", {},
        h("div", {}, h("dt", { text: t("web.profile.hands") }), h("dd", { testid: "hands-played", text: num(p.hands, 0) })),
        h("div", {}, h("dt", { text: t("web.profile.firsts") }), h("dd", { testid: "first-places", text: num(p.firsts, 0) })))),
    h("section.panel", {}, h("h2", { text: t("web.profile.ratings") }),
      p.ratings.length ? h("div.rating-cards", {}, p.ratings.map(ratingCard))
        : h("p.muted", { text: t("web.profile.no_ratings") })),
    h("section.panel", {}, h("h2", { text: t("web.profile.recent") }), recentTable(p.recent)),
    own ? h("section.panel", { testid: "opponents" }, h("h2", { text: t("web.profile.opponents") }),
      opponentsTable(p.opponents)) : "",
    h("p", {}, h("a", { href: "/leaderboard", text: t("web.board.link") }), " · ", h("a", { href: "/", text: t("web.profile.lobby") })));
}

/** /p/NAME: an account's profile. */
export async function profilePage(name) {
  const box = $("profile");
  box.hidden = false;
  try {
    const [p, me] = await Promise.all([api(`/api/players/${encodeURIComponent(name)}`),
      api("/api/me").catch(() => ({}))]);
    document.title = `${p.name} · Tiến Lên`;
    renderProfile(box, p);
    // someone else's profile, seen by a player the room knows: report or block them here
    if (me.id && me.name !== p.name) {
      box.querySelector(".profile-head").append(await friendButton({ player: p.name }, p.name),
        reportBlockButtons({ player: p.name }, p.name));
    }
  } catch (err) {
    box.replaceChildren(h("section.panel", {}, h("h1", { text: t("web.profile.missing", { name }) }),
      h("p", {}, h("a.button.primary", { href: "/", text: t("web.missing.back") }))));
  }
}

/** /me: the player's own hands and ratings (its account's part is account.js's). */
export async function mePage() {
  $("me").hidden = false;
  const box = $("me-profile");
  const p = await api("/api/me/profile");
  document.title = `${t("web.profile.title")} · Tiến Lên`;
  if (p.name === null) {
    box.replaceChildren(h("section.panel", {}, h("h1", { text: t("web.profile.title") }),
      h("p", { testid: "profile-unknown", text: t("web.profile.unknown") }),
      h("p", {}, h("a", { href: "/", text: t("web.profile.lobby") }))));
    return;
  }
  renderProfile(box, p, "h1", true);
}
