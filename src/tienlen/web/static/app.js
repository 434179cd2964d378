// The page: a lobby, and a table played over a WebSocket. No build step: plain ES modules.
import { account } from "./people/account.js";
import { admin } from "./people/admin.js";
import { $ } from "./lib/dom.js";
import { friendsSection, watchInvitations } from "./people/friends.js";
import { init } from "./lib/i18n.js";
import { leaderboardPage } from "./lobby/leaderboard.js";
import { lobby } from "./lobby/lobby.js";
import { mountPrefs } from "./lib/prefs.js";
import { mePage, profilePage } from "./people/profile.js";
import { seatNote } from "./lobby/quickmatch.js";
import { table } from "./table/table.js";

const path = location.pathname;
await init();
mountPrefs();
account(path).catch((err) => { $("account").textContent = err.message; });
watchInvitations();
if (path.startsWith("/t/")) { table(path.slice(3)); seatNote(path.slice(3)); }
else if (path.startsWith("/p/")) profilePage(decodeURIComponent(path.slice(3)));
else if (path === "/leaderboard") leaderboardPage();
else if (path === "/me") mePage().then(friendsSection);
else if (path === "/admin") admin();
else lobby().catch((err) => { $("lobby").hidden = false; $("lobby-error").textContent = err.message; });
