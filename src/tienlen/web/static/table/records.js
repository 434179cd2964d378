// The side's records: the table's finished hands (a link to each record, its replay on the
// stage's felt, and for the host of a private table a link of its own to share).
import { elements, h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { api } from "../lib/net.js";
import { replayHand } from "./replay.js";

export class Records {
  /** ``now()``: the table as it is now, ``{ info, seat }`` (read again once an answer comes). */
  constructor(tableId, now) {
    this.id = tableId;
    this.now = now;
    this.shown = -1;  // the number of records drawn
    this.asked = 0;   // the asks made: only the latest one's answer is drawn
    this.els = elements("records", "all-records");
  }

  async render() {
    const n = this.now().info.records;
    if (n === this.shown) return;
    this.shown = n;
    const { records: list, allRecords } = this.els;
    list.replaceChildren();
    allRecords.hidden = n === 0;
    allRecords.href = `/api/tables/${this.id}/record.toml`;
    const ask = this.asked = this.asked + 1;
    if (!n) { list.append(h("li.none", { text: t("web.records.none") })); return; }
    let records;
    try {
      records = await api(`/api/tables/${this.id}/records`);
    } catch {  // a private table's hands are its players' only (a watcher by link reads none)
      if (ask !== this.asked) return;
      allRecords.hidden = true;
      list.replaceChildren(h("li.none", { text: t("web.records.private") }));
      return;
    }
    if (ask !== this.asked) return;  // asked again meanwhile: the later answer is drawn
    const { info, seat } = this.now();
    const sharer = info.private && seat !== null && seat === info.host_seat;
    list.replaceChildren(...records.map((r) => h("li", {},
      h("a", { href: r.url, testid: "record", text: t("web.records.hand", { n: r.hand }) }), " ",
      h("button.small", { type: "button", testid: "replay-hand", text: t("web.replay.title"), "aria-label": t("web.records.replay_label", { n: r.hand }),
        onclick: () => this.replay(r.hand) }),
      sharer ? this.shareButton(r.hand) : "")));
  }

  /** The host's button that makes a link of its own to a hand of a private table, shown with
   * the way to stop sharing it. */
  shareButton(hand) {
    const place = h("span.share");
    const path = `/api/tables/${this.id}/records/${hand}/share`;
    const button = h("button.small", { type: "button", testid: "share-hand", text: t("web.records.share"), "aria-label": t("web.records.share_label", { n: hand }),
      onclick: async () => {
        try {
          const made = await api(path, {});
          const link = new URL(made.page, location.href).href;  // the replay's own page
          const stop = h("button.small", { type: "button", testid: "unshare-hand", text: t("web.records.unshare"),
            onclick: async () => { await api(`${path}/remove`, {}).catch(() => {}); place.replaceChildren(button); } });
          place.replaceChildren(h("span", { text: t("web.records.shared", { n: hand }) }), " ",
            h("input", { type: "text", readOnly: true, value: link, testid: "share-link", "aria-label": t("web.records.share_label", { n: hand }) }), " ", stop);
          navigator.clipboard?.writeText(link).catch(() => {});
        } catch (err) {
          place.replaceChildren(button, h("span", { role: "alert", text: ` ${err.message}` }));
        }
      } });
    place.append(button);
    return place;
  }

  /** The replay of ``hand`` on the stage's felt (replay.js), this seat at the bottom. */
  replay(hand) { replayHand(this.id, hand, this.now().seat); }
}
