// The page: a lobby, and a table played over a WebSocket. No build step: plain ES modules.
import { account } from "./account.js";
import { $ } from "./dom.js";
import { init } from "./i18n.js";
import { lobby } from "./lobby.js";
import { table } from "./table.js";

const path = location.pathname;
await init();
account(path).catch((err) => { $("account").textContent = err.message; });
if (path.startsWith("/t/")) table(path.slice(3));
else if (path !== "/me") lobby().catch((err) => { $("lobby").hidden = false; $("lobby-error").textContent = err.message; });
