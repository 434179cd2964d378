// The table's bar above the felt: its name, rules, hand number and id, its settings, the
// invitation link with Copy, and Leave. (Invite a friend and the turn alert are friends.js's
// and attention.js's.)
import { elements } from "../lib/dom.js";
import { presetName, t } from "../lib/i18n.js";

export class Bar {
  constructor() {
    this.els = elements("room-bar", "bar-more", "bar-actions", "table-title", "rules-name", "hand-no", "table-id",
      "table-extra", "invite", "copy", "leave");
  }

  /** The table ``info`` titled ``title``; Leave for a seated player where the server has hosts. */
  render(info, title, seated) {
    const els = this.els;
    els.tableTitle.textContent = title;
    els.tableId.textContent = info.id;
    els.rulesName.textContent = Object.keys(info.options).length ? t("web.room.rules_changed", { rules: presetName(info.rules) }) : presetName(info.rules);
    els.handNo.textContent = info.hand_no ? t("web.room.hand_no", { n: info.hand_no }) : t("web.room.not_started");
    const extra = [info.private ? t("web.room.private") : "", info.seed !== undefined && info.seed !== null ? t("web.room.seed", { seed: info.seed }) : "",
      info.turn_timer ? t("web.room.timer", { s: info.turn_timer }) : "", info.paused ? t("web.room.paused") : ""].filter(Boolean);
    els.tableExtra.textContent = extra.map((e) => ` · ${e}`).join("");
    const link = `${location.origin}/t/${info.id}`;
    els.invite.href = link;
    els.invite.textContent = link.replace(/^https?:\/\//, "");
    els.leave.hidden = !("host_seat" in info && seated);
    // a spectator is offered only what applies to them: no turn alert, no inviting to a seat
    els.roomBar.classList.toggle("watching", !seated);
  }

  /** Copy the link (saying whether it was copied), and Leave (``onLeave``). */
  wire(onLeave) {
    const { copy, invite, leave, barMore, roomBar, barActions } = this.els;
    // on a phone the actions are one menu (⋯): it closes once one of them is chosen, or on Escape
    const open = (on) => { roomBar.classList.toggle("open", on); barMore.setAttribute("aria-expanded", String(on)); };
    barMore.addEventListener("click", () => open(!roomBar.classList.contains("open")));
    barActions.addEventListener("click", (ev) => { if (ev.target.closest("button")) open(false); });
    roomBar.addEventListener("keydown", (ev) => { if (ev.key === "Escape") open(false); });
    copy.addEventListener("click", async () => {
      try { await navigator.clipboard.writeText(invite.href); copy.textContent = t("web.room.copied"); } catch { copy.textContent = t("web.room.copy_failed"); }
      setTimeout(() => { copy.textContent = t("web.room.copy"); }, 1500);
    });
    leave.addEventListener("click", onLeave);
  }
}
