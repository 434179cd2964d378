// Talking at the table: the canned phrases and reactions (every table), your own words (private
// tables only), the table's chat log, and a bubble by the plate of the seat that said it. A
// phrase arrives as its key (chat.phrase.<key>) and is said in this page's language; a player's
// words are shown as text, never as markup. Muting is this browser's: the seats muted at a
// table are kept in localStorage, so a reload (or a restart of the server) keeps them.
import { elements, h, keepInside } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { reactionIcon, reactionName, reactionPicture } from "../lib/reactions.js";
import { seatPosition } from "./seats.js";

// the server's catalogue (web/chat.py: PHRASES, EMOJI), in its order
export const PHRASES = ["hello", "good_luck", "good_game", "well_played", "nice_chop", "hurry_up", "sorry", "thanks", "oops", "bye"];
export const EMOJI = ["👍", "👏", "😂", "😮", "😢", "😠", "🔥", "🙏"];
export const MAX_TEXT = 200;
const BUBBLE_MS = 4000;
const KEPT = 200;  // lines the log keeps

const muteKey = (table) => `tienlen-muted:${table}`;

/** The seats this browser muted at ``table``. */
export function mutedSeats(table) {
  try {
    const seats = JSON.parse(localStorage.getItem(muteKey(table)) || "[]");
    return new Set(Array.isArray(seats) ? seats.filter(Number.isInteger) : []);
  } catch {
    return new Set();
  }
}

export class Chat {
  /** ``send(cmd)``: the table's WebSocket; ``names()``: each seat's name as this page shows it. */
  constructor(table, send, names) {
    this.table = table;
    this.send = send;
    this.names = names;
    this.lines = [];  // {seat, words} or {note}
    this.muted = mutedSeats(table);
    this.view = { seat: null, players: 4 };
    this.els = elements("chat", "chat-open", "chat-close", "chat-unread", "chat-phrases", "chat-reactions", "chat-text",
      "chat-form", "chat-say", "chat-watching", "chat-public", "chat-log", "chat-bubbles");
    this.unread = 0;  // lines said while the phone's sheet was closed
  }

  mount() {
    this.els.chatPhrases.replaceChildren(...PHRASES.map((key) => h("button.small", {
      type: "button", testid: "chat-phrase", dataset: { phrase: key }, text: t(`chat.phrase.${key}`),
      onclick: () => this.send({ type: "say", phrase: key }),
    })));
    this.els.chatReactions.replaceChildren(...EMOJI.map((emoji) => h("button.small.emoji", {
      type: "button", testid: "chat-emoji", dataset: { emoji }, title: reactionName(emoji),
      "aria-label": t("web.chat.react_label", { emoji: reactionName(emoji) }),
      onclick: () => this.send({ type: "react", emoji }),
    }, reactionIcon(emoji))));
    this.els.chatText.maxLength = MAX_TEXT;
    this.els.chatOpen.addEventListener("click", () => this.sheet(true));
    this.els.chatClose.addEventListener("click", () => this.sheet(false));
    this.els.chat.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && this.sheetOpen()) this.sheet(false); });
    this.els.chatForm.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = this.els.chatText.value.trim();
      if (!text) return;
      this.send({ type: "chat", text: text.slice(0, MAX_TEXT) });
      this.els.chatText.value = "";
    });
    this.drawLog();
  }

  /** What may be said here: seated players talk (words at a private table), spectators read. */
  render(info, seat) {
    this.view = { seat, players: info.players };
    const seated = seat !== null;
    this.els.chatSay.hidden = !seated;
    this.els.chatWatching.hidden = seated;
    this.els.chatForm.hidden = !info.private;
    this.els.chatPublic.hidden = Boolean(info.private);
  }

  /** A chat event from the server. */
  receive(ev) {
    if (this.muted.has(ev.seat)) return;
    const words = ev.kind === "phrase" ? t(`chat.phrase.${ev.phrase}`) : ev.kind === "emoji" ? null : ev.text;
    this.add({ seat: ev.seat, name: this.names()[ev.seat] || ev.name, words, emoji: ev.kind === "emoji" ? ev.emoji : null });
    this.bubble(ev.seat, words, ev.kind === "emoji" ? ev.emoji : null);
    if (ev.seat !== this.view.seat) this.countUnread();
  }

  /** On a phone the chat is a sheet over the table, opened by its button on the felt; what
   * was said while it was closed is counted on that button. */
  sheet(open) {
    const { chat, chatOpen, chatUnread } = this.els;
    chat.classList.toggle("sheet", open);
    chatOpen.setAttribute("aria-expanded", String(open));
    if (open) {
      this.unread = 0;
      chatUnread.hidden = true;
      (chat.querySelector("[data-testid=chat-phrase]") || this.els.chatLog).focus();
      this.els.chatLog.scrollTop = this.els.chatLog.scrollHeight;
    } else {
      chatOpen.focus();
    }
  }

  sheetOpen() { return this.els.chat.classList.contains("sheet"); }

  /** A line said while the sheet is closed, on a phone (where the button shows): counted. */
  countUnread() {
    if (this.sheetOpen() || getComputedStyle(this.els.chatOpen).display === "none") return;
    this.unread += 1;
    this.els.chatUnread.hidden = false;
    this.els.chatUnread.textContent = String(this.unread);
    this.els.chatUnread.setAttribute("aria-label", t("web.chat.unread", { n: this.unread }));
  }

  /** A line of the table's own (a player removed or kicked), in the log. */
  note(text) { this.add({ note: text }); }

  add(line) {
    this.lines.push(line);
    if (this.lines.length > KEPT) this.lines.shift();
    this.drawLog();
  }

  drawLog() {
    const log = this.els.chatLog;
    const shown = this.lines.filter((l) => l.note || !this.muted.has(l.seat));
    if (!shown.length) { log.replaceChildren(h("p.none", { text: t("web.chat.none") })); return; }
    log.replaceChildren(...shown.map((l) => (l.note ? h("p.note", { testid: "chat-note", text: l.note })
      : h("p", { testid: "chat-line", dataset: { seat: l.seat } },
        h("b", { text: l.name }), " ", l.emoji ? reactionPicture(l.emoji) : h("span", { text: l.words })))));
    log.scrollTop = log.scrollHeight;
  }

  /** The words said (or the reaction, drawn), for a few seconds by the plate of ``seat`` (the
   * log reads them out). */
  bubble(seat, words, emoji = null) {
    const n = this.view.players;
    const r = ((seat - (this.view.seat ?? 0)) % n + n) % n;
    const [x, y] = seatPosition(r, n);
    const box = this.els.chatBubbles;
    for (const old of box.querySelectorAll(`[data-seat="${seat}"]`)) old.remove();
    const b = emoji ? h("div.chat-bubble.reacting", { testid: "chat-bubble", dataset: { seat } }, reactionPicture(emoji))
      : h("div.chat-bubble", { testid: "chat-bubble", dataset: { seat }, text: words });
    if (y > 75) b.classList.add("below");
    b.style.setProperty("--x", `${x}%`);
    b.style.setProperty("--y", `${y}%`);
    box.append(b);
    keepInside(b);  // a side seat's bubble keeps its first words on the screen
    setTimeout(() => b.remove(), BUBBLE_MS);
  }

  /** Mute (``on``) or unmute ``seat`` in this browser: its lines and bubbles hidden, kept across reloads. */
  mute(seat, on) {
    if (on) this.muted.add(seat); else this.muted.delete(seat);
    localStorage.setItem(muteKey(this.table), JSON.stringify([...this.muted].sort()));
    if (on) for (const b of this.els.chatBubbles.querySelectorAll(`[data-seat="${seat}"]`)) b.remove();
    this.drawLog();
  }
}
