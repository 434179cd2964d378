// Quick match: in the lobby, Play now (a rules family and a table size), the wait (its pool,
// how many wait in it, the countdown until bots fill the seats people did not, Cancel) and
// then the table; the lobby's counts and who waits in each pool; at a table, a seat kept for
// the next hand says so until it is the player's.
import { $, h } from "../lib/dom.js";
import { familyName, t, tn } from "../lib/i18n.js";
import { api } from "../lib/net.js";

const EVERY = 1000;  // ms between two looks at the queue while waiting
let timer = null;

/** A pool of the queue as players name it: "Miền Nam (Southern) · 4". */
const poolName = (family, size) => t("web.lobby.qm_pool", { family: familyName(family), size });

/** "m:ss" */
const clock = (secs) => `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;

function show(state) {
  const waiting = state.state === "waiting";
  $("qm-waiting").hidden = !waiting;
  $("play-now").disabled = waiting;
  if (waiting) {
    const secs = Math.ceil(state.fill_in ?? 0);
    const fill = secs > 0 ? t("web.lobby.qm_fill", { time: clock(secs) }) : t("web.lobby.qm_filling");
    $("qm-waiting-text").textContent = `${tn("web.lobby.qm_waiting", state.waiting, { pool: poolName(state.family, state.players) })} · ${fill}`;
  }
}

/** The lobby's counts, and who waits in each pool now ("Waiting now: Miền Nam (Southern) · 4:
 * 3"), from ``/api/lobby``. */
export function showCounts(counts) {
  $("lobby-counts").textContent = t("web.lobby.counts", counts);
  const pools = counts.pools || [];
  $("qm-pools").hidden = !pools.length;
  $("qm-pools").textContent = pools.length ? t("web.lobby.qm_pools", {
    pools: pools.map((p) => `${poolName(p.family, p.size)}: ${p.waiting}`).join(" · ") }) : "";
}

async function look() {
  const state = await api("/api/quickmatch");
  show(state);
  if (state.state === "waiting") timer = setTimeout(() => look().catch(fail), EVERY);
  else if (state.state === "matched" && state.url) {
    $("qm-said").textContent = t("web.lobby.qm_found");
    location.assign(state.url);
  }
}

function fail(err) { $("qm-error").textContent = err.message; }

function wait(state) {
  clearTimeout(timer);
  show(state);
  api("/api/lobby").then(showCounts).catch(() => {});
  if (state.state === "waiting") $("qm-said").textContent = $("qm-waiting-text").textContent;
  timer = setTimeout(() => look().catch(fail), state.state === "waiting" ? EVERY : 0);
}

/** The lobby's Play now; a page opened while its browser waits goes on waiting. */
export async function quickMatch() {
  $("play-now").addEventListener("click", async () => {
    $("qm-error").textContent = "";
    const name = $("name").value;
    localStorage.setItem("tienlen-name", name);
    try {
      wait(await api("/api/quickmatch", { family: $("qm-family").value, players: Number($("qm-players").value), name }));
    } catch (err) { fail(err); }
  });
  $("qm-cancel").addEventListener("click", async () => {
    clearTimeout(timer);
    try {
      show(await api("/api/quickmatch/cancel", {}));
      $("qm-said").textContent = "";
      $("play-now").focus();
    } catch (err) { fail(err); }
  });
  const state = await api("/api/quickmatch");
  if (state.state === "waiting") wait(state);
}

/** At table ``id``: while the seat quick match kept here is the player's only from the next
 * hand, say so above the felt. A seat given up (the table stopped dealing: nobody is there)
 * sends the page back to the lobby's wait, or to the table found since. */
export async function seatNote(id) {
  const state = await api("/api/quickmatch").catch(() => null);
  if (!state || state.table !== id || !state.next_hand) return;
  const note = h("p.seat-note", { role: "status", testid: "next-hand-seat", text: t("web.table.next_hand_seat") });
  $("felt").before(note);
  const again = async () => {
    const now = await api("/api/quickmatch").catch(() => null);
    if (now && now.table === id && now.next_hand) setTimeout(again, 2 * EVERY);
    else if (now && now.state === "waiting") location.assign("/");
    else if (now && now.state === "matched" && now.table !== id) location.assign(now.url);
    else note.remove();
  };
  setTimeout(again, 2 * EVERY);
}
