// The page: a lobby, and a table played over a WebSocket. No build step: plain ES modules.
import { account } from "./account.js";
import { admin } from "./admin.js";
import { $ } from "./dom.js";
import { friendsSection, watchInvitations } from "./friends.js";
import { init } from "./i18n.js";
import { leaderboardPage } from "./leaderboard.js";
import { lobby } from "./lobby.js";
import { mountPrefs } from "./prefs.js";
import { mePage, profilePage } from "./profile.js";
import { seatNote } from "./quickmatch.js";
import { table } from "./table.js";

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
