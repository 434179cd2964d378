// Reporting and blocking a player: a dialog from a seat at the table, and buttons a profile can
// show (reportBlockButtons). A banned player is told why (showBanned). Everything a player
// typed is shown as text, never as markup.
import { $, h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { api } from "../lib/net.js";

export const REASONS = ["cheating", "abuse", "offensive_name", "stalling", "other"];
export const MAX_TEXT = 500;

/** Block ``target`` ({player} or {table, seat}); resolves to the words that say it was done. */
async function block(target, name) {
  await api("/api/blocks", target);
  return t("web.block.done", { name });
}

/** The dialog that reports ``target`` ({player: NAME} or {table, seat}) called ``name``, about
 * ``about`` ({table, hand}); it can block the player too. */
export function openReport(target, name, about = {}) {
  const old = $("report-dialog");
  if (old) old.remove();
  const reason = h("select", { id: "report-reason", testid: "report-reason" },
    REASONS.map((r) => h("option", { value: r, text: t(`web.report.reason.${r}`) })));
  const text = h("textarea", { id: "report-text", testid: "report-text", rows: 3, maxLength: MAX_TEXT });
  const error = h("p.error", { testid: "report-error", role: "alert" });
  const done = h("p.report-done", { testid: "report-done", role: "status" });
  const send = h("button.primary", { type: "submit", testid: "report-send", text: t("web.report.send") });
  const close = () => { dialog.close(); dialog.remove(); };
  const blockButton = h("button", {
    type: "button", testid: "block", text: t("web.block.button"),
    onclick: async () => {
      error.textContent = "";
      try { done.textContent = await block(target, name); blockButton.disabled = true; } catch (err) { error.textContent = err.message; }
    },
  });
  const form = h("form", {
    method: "dialog",
    onsubmit: async (ev) => {
      ev.preventDefault();
      error.textContent = "";
      send.disabled = true;
      try {
        await api("/api/reports", {
          ...target, reason: reason.value, text: text.value.slice(0, MAX_TEXT),
          table: about.table ?? target.table, hand: about.hand ?? undefined,
        });
        done.textContent = t("web.report.sent", { name });
        for (const el of [reason, text]) el.disabled = true;
      } catch (err) {
        error.textContent = err.message;
        send.disabled = false;
      }
    },
  },
  h("h2", { id: "report-title", text: t("web.report.title", { name }) }),
  h("label", {}, h("span", { text: t("web.report.reason") }), reason),
  h("label", {}, h("span", { text: t("web.report.text") }), text),
  error, done,
  h("div.dialog-buttons", {}, blockButton,
    h("button", { type: "button", testid: "report-cancel", text: t("web.report.cancel"), onclick: close }),
    send));
  const dialog = h("dialog.moderation", { id: "report-dialog", testid: "report-dialog", "aria-labelledby": "report-title" }, form);
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  reason.focus();
  return dialog;
}

/** "Report…" and "Block" buttons for a player (a profile's: ``target`` {player: NAME}). */
export function reportBlockButtons(target, name, about = {}) {
  const status = h("span.report-done", { role: "status", testid: "block-done" });
  return h("span.report-buttons", {},
    h("button.small", {
      type: "button", testid: "report", "aria-haspopup": "dialog", text: t("web.report.button"),
      onclick: () => openReport(target, name, about),
    }),
    h("button.small", {
      type: "button", testid: "block", text: t("web.block.button"),
      onclick: async () => {
        try { status.textContent = await block(target, name); } catch (err) { status.textContent = err.message; }
      },
    }),
    status);
}

/** Say why this browser may only watch (an error event of code "banned"), above the felt. */
export function showBanned(text) {
  let box = $("banned");
  if (!box) {
    box = h("p.banned", { id: "banned", testid: "banned", role: "alert" });
    $("felt").before(box);
  }
  box.textContent = text;
}
