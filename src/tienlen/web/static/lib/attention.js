// A player looking at another tab is told when it is their turn: the tab's title flashes until
// they come back, and, where they allowed it (the bell in the table's bar), a notification says
// so once a turn.
import { $ } from "./dom.js";
import { t } from "./i18n.js";

const FLASH_MS = 1000;
let flashing = null;  // the interval that flashes the title
let titles = { calm: document.title, yours: document.title, now: false };
let told = null;  // the turn (a key) a notification was shown for

const canNotify = () => "Notification" in window;

function stopFlashing() {
  if (flashing !== null) clearInterval(flashing);
  flashing = null;
}

function flash() {
  if (flashing !== null) return;
  let on = true;
  flashing = setInterval(() => {
    on = !on;
    document.title = on ? titles.yours : t("web.title.flash");
  }, FLASH_MS);
}

/** The table's title now: ``yours`` when it is the player's turn (``turn``: a key of that turn,
 * so that one turn is told once). A hidden tab flashes and may notify. */
export function turnTitle(yours, calm, yoursTitle, turn) {
  titles = { calm, yours: yoursTitle, now: yours };
  document.title = yours ? yoursTitle : calm;
  if (!yours) { stopFlashing(); return; }
  if (!document.hidden) return;
  flash();
  if (told !== turn && notify(t("web.notify.title"), t("web.notify.body", { title: calm }), "tienlen-turn")) told = turn;
}

/** A notification, where the player allowed them (the bell); false when none could be shown. */
export function notify(title, body, tag = undefined) {
  if (!canNotify() || Notification.permission !== "granted") return false;
  const note = new Notification(title, { body, tag });
  note.onclick = () => { window.focus(); note.close(); };
  return true;
}

document.addEventListener("visibilitychange", () => {
  if (document.hidden && titles.now) flash();  // the player looked away during their turn
  if (!document.hidden && flashing !== null) {
    stopFlashing();
    document.title = titles.yours;
  }
});

/** The bell in the table's bar: asks the browser to let the page notify (a click is a gesture,
 * as browsers require), and says whether it may. */
export function mountBell() {
  const bell = $("notify");
  if (!bell) return;
  if (!canNotify()) { bell.hidden = true; return; }
  const show = () => {
    const state = Notification.permission;
    bell.setAttribute("aria-pressed", state === "granted" ? "true" : "false");
    bell.textContent = t(state === "granted" ? "web.notify.on" : state === "denied" ? "web.notify.blocked" : "web.notify.ask");
    bell.disabled = state === "denied";
  };
  bell.hidden = false;
  show();
  bell.addEventListener("click", async () => {
    if (Notification.permission === "default") await Notification.requestPermission();
    show();
  });
}
