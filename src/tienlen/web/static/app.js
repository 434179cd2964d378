// The page: a lobby, and a table played over a WebSocket. No build step: plain ES modules. What
// every page has (the words, the settings, the account, the invitations) is loaded at once; each
// page's own modules only on that page (the lobby's first visit does not fetch the table's).
import { account } from "./people/account.js";
import { $ } from "./lib/dom.js";
import { watchInvitations } from "./people/friends.js";
import { init } from "./lib/i18n.js";
import { mountPrefs } from "./lib/prefs.js";

const path = location.pathname;
await init();
mountPrefs();
account(path).catch((err) => { $("account").textContent = err.message; });
watchInvitations();
if (path.startsWith("/t/")) {
  const [{ table }, { seatNote }] = await Promise.all([import("./table/table.js"), import("./lobby/quickmatch.js")]);
  table(path.slice(3));
  seatNote(path.slice(3));
} else if (path.startsWith("/replay/") || path.startsWith("/shared/")) {
  (await import("./table/replay.js")).replayPage(path);
} else if (path.startsWith("/p/")) {
  (await import("./people/profile.js")).profilePage(decodeURIComponent(path.slice(3)));
} else if (path === "/leaderboard") {
  (await import("./lobby/leaderboard.js")).leaderboardPage();
} else if (path === "/me") {
  const [{ mePage }, { friendsSection }] = await Promise.all([import("./people/profile.js"), import("./people/friends.js")]);
  mePage().then(friendsSection);
} else if (path === "/admin") {
  (await import("./people/admin.js")).admin();
} else {
  (await import("./lobby/lobby.js")).lobby().catch((err) => { $("lobby").hidden = false; $("lobby-error").textContent = err.message; });
}
