// Before the first hand: who may still sit (your name and Join), and the host's Add a bot (with
// the levels the rules offer) and Start; what the setup says, and why a command was refused.
import { elements, onUsableClick, setEnabled } from "../lib/dom.js";
import { seatName, t, tn } from "../lib/i18n.js";
import { levelKey, levelsAt } from "../lobby/lobby.js";

export class Setup {
  constructor(tableId) {
    this.id = tableId;
    this.levelPicked = false;  // the host chose a level: kept until the rules offer it no more
    this.els = elements("setup", "setup-note", "join-name", "join", "add-level", "add-bot", "start", "setup-error");
  }

  get hidden() { return this.els.setup.hidden; }

  /** The name to sit with. */
  name() { return this.els.joinName.value || t("web.default_name"); }

  showError(text) { this.els.setupError.textContent = text; }

  /** The setup of table ``info`` seen from seat ``me`` (null: watching): join unless seated or
   * barred; the host alone seats bots and starts (a server without hosts: anyone seated). */
  render({ info, me, barred, levels, agent, seats, reason }) {
    const els = this.els;
    const open = info.status === "open";
    const host = "host_seat" in info ? info.host_seat ?? null : me;
    const hosting = me !== null && host === me;
    els.setup.hidden = !open;
    els.join.hidden = me !== null || barred;
    // an account sits under its own name (account.js makes the field read-only): not asked again
    const named = els.joinName.readOnly;
    els.joinName.closest("label").hidden = me !== null || barred || named;
    els.join.textContent = named ? t("web.room.join_as", { name: els.joinName.value }) : t("web.room.join");
    els.addBot.hidden = !hosting;
    this.offerLevels(info, !hosting, levels, agent, seats);
    els.start.hidden = !hosting;
    const empty = info.seats.filter((s) => s.kind === "empty").length;
    const hostName = host !== null && info.seats[host] ? seatName(info.seats[host]) : "";
    const guest = !hosting && hostName;  // seated or still watching: the host runs the table
    const guestFree = me === null ? "web.setup.watch_free" : "web.setup.guest_free";
    els.setupNote.textContent = !open ? "" : guest
      ? (empty ? tn(guestFree, empty, { name: hostName }) : t("web.setup.guest_full", { name: hostName }))
      : (empty ? tn("web.setup.free", empty) : t("web.setup.full"));
    if (open) setEnabled(els.start, empty === 0, tn("web.setup.still_empty", empty));
    if (open) setEnabled(els.addBot, empty > 0, t("web.setup.every_seat_taken"));
    this.showError(open ? reason : "");
  }

  /** The level select: the levels the table's rules and size offer (``levels``: per rules, or
   * null while unknown; ``seats``: the sizes of the levels offered only at some), the table's own
   * chosen until the host picks another. */
  offerLevels(info, hidden, levels, agent, seats) {
    const select = this.els.addLevel;
    const offered = levelsAt(levels, agent, info.rules, info.players, seats);
    select.hidden = hidden || !offered;
    if (!offered) return;
    for (const option of select.options) option.hidden = option.disabled = !offered.includes(option.value);
    if (!this.levelPicked || !offered.includes(select.value)) {
      const own = info.bot_level || sessionStorage.getItem(levelKey(this.id));
      select.value = offered.includes(own) ? own : "heuristic";
    }
  }

  /** The level a bot added now plays at: the one picked, else the table's (``info``: the table
   * now, or null before its first state), else the one chosen in the lobby (none: the server's). */
  level(info) {
    const select = this.els.addLevel;
    const picked = select.hidden ? null : select.value;
    return picked || (info && info.bot_level) || sessionStorage.getItem(levelKey(this.id));
  }

  /** Join (the button or Enter in the name), Add a bot and Start, each only while usable. */
  wire({ onJoin, onAddBot, onStart }) {
    const { join, joinName, addLevel, addBot, start } = this.els;
    join.addEventListener("click", onJoin);
    if (!joinName.dataset.known) joinName.value = localStorage.getItem("tienlen-name") || t("web.default_name");
    joinName.addEventListener("keydown", (ev) => { if (ev.key === "Enter") join.click(); });
    addLevel.addEventListener("change", () => { this.levelPicked = true; });
    onUsableClick(addBot, onAddBot);
    onUsableClick(start, onStart);
  }
}
