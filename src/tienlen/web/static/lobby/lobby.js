// The lobby: your name, a quick game, Play now (quickmatch.js), a new table, the players online,
// playing and waiting, and the open tables listed by their names.
import { cardsRow } from "../lib/cards.js";
import { $, h } from "../lib/dom.js";
import { lang, presetLine, presetName, t, tableTitle, tn } from "../lib/i18n.js";
import { api, tokenKey } from "../lib/net.js";
import { quickMatch, showCounts } from "./quickmatch.js";

export const levelKey = (id) => `tienlen-level-${id}`;

/** The levels a table of ``rules`` with ``players`` seats offers (``levels``: per rules, from
 * /api/presets, or null while unknown): the trained agent (``agent``) only at its own tables,
 * a level the rules offer at some sizes only (``seats``: per rules, per level) only at those. */
export const levelsAt = (levels, agent, rules, players, seats) => {
  const offered = levels && levels[rules];
  if (!offered) return null;
  const size = Number(players);
  const sizes = (seats && seats[rules]) || {};
  return offered.filter((level) => (level !== "agent"
    || (agent && agent.rules === rules && size === agent.players))
    && !(sizes[level] && !sizes[level].includes(size)));
};

const tr = t;

/** Elements with a space between each two: unseen in a grid or a flex row, but the text of the
 * row reads as words ("pagat 4 players"), not "pagat4 players". */
const spaced = (...items) => items.filter(Boolean).flatMap((x, i) => (i ? [" ", x] : [x]));

function tableRow(t, mine = false) {
  const free = t.seats.filter((s) => s.kind === "empty").length;
  const playing = t.status !== "open";
  const humans = t.seats.filter((s) => s.kind === "human").map((s) => s.name);
  const title = tableTitle(t);
  const state = playing ? tr("web.lobby.playing_hand", { n: t.hand_no }) : (free ? tn("web.seats_free", free) : tr("web.lobby.full"));
  const bots = t.bot_level ? tr("web.lobby.bots", { level: tr(`bot.level.${t.bot_level}`) }) : null;
  const who = humans.length ? humans.join(", ") : null;
  const go = mine ? tr("web.lobby.resume") : playing ? tr("web.lobby.watch") : tr("web.lobby.sit");
  // the link is named by the words it shows, in their order, with pauses between them
  const label = [title, presetName(t.rules), tn("web.lobby.players", t.players), bots, state, who, go].filter(Boolean).join(", ");
  return h("li.table-row", { testid: "table-row", dataset: { id: t.id } },
    h("a.table-link", { href: `/t/${t.id}`, "aria-label": label }, spaced(
      h("span.table-name", { text: title }),
      h("span.table-meta", {}, spaced(
        h("span.tag", { text: presetName(t.rules) }),
        h("span.tag", { text: tn("web.lobby.players", t.players) }),
        bots ? h("span.tag", { text: bots }) : null,
        h(`span.tag.${playing ? "playing" : "open"}`, { text: state }))),
      who ? h("span.table-who", { text: who }) : null,
      h("span.table-go", { text: go }))));
}

export async function lobby() {
  // shown once its buttons work (a click before that would be lost)
  document.title = t("web.title.lobby");
  const name = $("name");
  if (!name.dataset.known) name.value = localStorage.getItem("tienlen-name") || t("web.default_name");
  name.addEventListener("change", () => localStorage.setItem("tienlen-name", name.value));
  const fail = (err) => { $("lobby-error").textContent = err.message; };
  const { presets, levels, home, agent, seats } = await api("/api/presets");
  // one choice of rules, shown by the quick game and in the new table's form: Vietnam's own
  // first (Miền Nam the default), then the published accounts as "other rule books"
  const choices = [$("quick-rules"), $("rules")];
  const first = home && home.length ? home : presets.slice(0, 1);
  for (const select of choices) {
    for (const p of first) select.append(new Option(presetName(p), p));
    const others = h("optgroup", { label: t("web.form.other_rules") });
    for (const p of presets.filter((p) => !first.includes(p))) others.append(new Option(presetName(p), p));
    select.append(others);
  }
  const savedRules = localStorage.getItem("tienlen-rules");
  for (const select of choices) select.value = presets.includes(savedRules) ? savedRules : first[0];
  // the form's select is the one read (its levels, its line); the quick game's follows it
  $("quick-rules").addEventListener("change", () => {
    $("rules").value = $("quick-rules").value;
    $("rules").dispatchEvent(new Event("change"));
  });
  $("rules").addEventListener("change", () => { $("quick-rules").value = $("rules").value; });
  const savedLevel = localStorage.getItem("tienlen-level");
  if (savedLevel) $("level").value = savedLevel;
  // the levels the chosen rules' tables offer, weakest first (the others hidden; the choice
  // kept where it is offered, else the strongest offered below it)
  const offerLevels = () => {
    const offered = levelsAt(levels, agent, $("rules").value, $("players").value, seats);
    if (!offered) return;
    const select = $("level");
    const chosen = select.selectedIndex;
    let keep = offered[0];
    for (const option of select.options) {
      option.hidden = option.disabled = !offered.includes(option.value);
      if (!option.disabled && option.index <= chosen) keep = option.value;
    }
    select.value = keep;
  };
  offerLevels();
  $("rules").addEventListener("change", offerLevels);
  $("players").addEventListener("change", offerLevels);
  const showPreset = async () => {
    $("rules-line").textContent = presetLine($("rules").value);
    $("quick-line").textContent = presetLine($("rules").value);
    const data = await api(`/api/presets/${$("rules").value}?lang=${lang}`);
    $("preset-text").textContent = data.explain || (data.toml + "\n" + data.describe);
  };
  $("rules").addEventListener("change", showPreset);
  showPreset().catch(fail);

  const create = async (quick) => {
    $("lobby-error").textContent = "";
    $("form-error").textContent = "";
    localStorage.setItem("tienlen-name", name.value);
    const level = $("level").value;
    localStorage.setItem("tienlen-rules", $("rules").value);
    const spec = quick ? { quick: true, name: name.value, rules: $("rules").value, level } : {
      rules: $("rules").value, options: $("options").value, players: Number($("players").value),
      away_timeout: Number($("away").value), turn_timer: Number($("timer").value),
      next_hand_after: Number($("next-after").value),
      level, name: name.value,
    };
    if (!quick) {
      localStorage.setItem("tienlen-level", level);
      const tableName = $("table-name").value.trim();
      if (tableName) spec.table_name = tableName;
      if ($("private").checked) spec.private = true;
    }
    try {
      let made;
      try {
        made = await api("/api/tables", spec);
      } catch (err) {  // an older server: create the table without its newer options
        if (err.status !== 422 || !/table_name|private|next_hand_after/.test(err.message)) throw err;
        delete spec.table_name;
        delete spec.private;
        delete spec.next_hand_after;
        made = await api("/api/tables", spec);
      }
      if (made.token) localStorage.setItem(tokenKey(made.id), made.token);
      sessionStorage.setItem(levelKey(made.id), level);
      location.assign(made.invite);
    } catch (err) {
      // said where the player is looking: beside the form's button, or under the quick game's
      if (quick) fail(err); else $("form-error").textContent = err.message;
    }
  };
  $("quick").addEventListener("click", () => create(true));
  $("new-table").addEventListener("click", () => {
    const form = $("new-form");
    form.hidden = !form.hidden;
    $("new-table").setAttribute("aria-expanded", String(!form.hidden));
    if (!form.hidden) $("table-name").focus();
  });
  $("new-form").addEventListener("submit", (ev) => { ev.preventDefault(); create(false); });
  await quickMatch().catch(() => {});
  $("lobby").hidden = false;
  landing();
  $("tables-more").addEventListener("click", () => {
    allTables = true;
    refreshTables().catch(() => {});
  });
  await refreshTables();
  setInterval(() => { if (!document.hidden) refreshTables().catch(() => {}); }, 10000);
}

/** The landing's picture (a run beaten by a higher run) and the top of the leaderboard. */
function landing() {
  const picture = $("howto-picture");
  picture.replaceChildren(cardsRow("3s 4s 5s", "big"), h("span.howto-arrow", { "aria-hidden": "true", text: "→" }),
    cardsRow("4h 5h 6h", "big"));
  api("/api/leaderboard?family=southern").then((board) => {
    const rows = board.rows.slice(0, 5);
    $("top-list").replaceChildren(...(rows.length ? rows.map((r) => h("li", { testid: "top-row" },
      r.profile ? h("a", { href: r.profile, text: r.name }) : h("span", { text: r.name }),
      h("span.muted", { text: ` ${r.conservative.toFixed(1)}` })))
      : [h("li.muted.none", { testid: "top-none", text: t("web.lobby.top_none") })]));
  }).catch(() => { $("top-list").replaceChildren(); });
}

// the open tables shown at first (a busy lobby's list would fill a phone's screens); a button
// shows the rest, and the list stays opened through the refreshes
const FIRST_TABLES = 10;
let allTables = false;

/** Tables with a free seat first (one can sit at once), then the ones being played. */
function byWelcome(a, b) {
  const free = (x) => (x.status === "open" && x.seats.some((s) => s.kind === "empty") ? 0 : 1);
  return free(a) - free(b);
}

async function refreshTables() {
  api("/api/lobby").then(showCounts).catch(() => {});
  const [listed, mine] = await Promise.all([api("/api/tables"), api("/api/me/tables").catch(() => [])]);
  // your own tables (private ones too) first, to resume; the others' below
  const yours = new Set(mine.map((x) => x.id));
  $("my-tables-box").hidden = !mine.length;
  $("my-tables").replaceChildren(...mine.map((x) => tableRow(x, true)));
  const tables = listed.filter((x) => !x.private && !yours.has(x.id)).sort(byWelcome);
  const list = $("tables");
  const shown = allTables ? tables : tables.slice(0, FIRST_TABLES);
  list.replaceChildren(...shown.map((x) => tableRow(x)));
  if (!tables.length) list.append(h("li.empty", { text: t("web.lobby.no_tables") }));
  const more = $("tables-more");
  more.hidden = shown.length === tables.length;
  more.textContent = tn("web.lobby.more", tables.length - shown.length);
}
