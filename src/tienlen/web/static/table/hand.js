// Your hand: large cards you select by click, tap or keyboard. The selection (and the keyboard
// focus) survives the others' moves: a card stays selected until it leaves your hand.
import { cardLabel, cardSvg } from "../lib/cards.js";
import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

/** Keys for a hand's cards: the card, and which copy of it (two packs): "7h#0", "7h#1". */
function keysOf(cards) {
  const seen = {};
  return cards.map((c) => { seen[c] = (seen[c] || 0) + 1; return `${c}#${seen[c] - 1}`; });
}

export class Hand {
  constructor(box, onChange) {
    this.box = box;
    this.onChange = onChange || (() => {});
    this.cards = [];
    this.keys = [];
    this.selected = new Set();  // keys
    this.focusKey = null;       // the card that takes the keyboard focus (roving tabindex)
    this.usable = null;         // the cards some legal play holds (null: every card, undimmed)
    box.setAttribute("role", "group");
    this.why = h("span.sr-only", { id: `${box.id}-unusable`, text: t("web.hand.unusable") });
    box.after(this.why);
    box.addEventListener("keydown", (ev) => this.key(ev));
  }

  /** Show ``cards`` (sorted, as the server sends them); redraws only when the hand changed. */
  show(cards) {
    const same = cards.length === this.cards.length && cards.every((c, i) => c === this.cards[i]);
    if (same && this.box.childElementCount === cards.length) { this.sync(); return; }
    const hadFocus = this.box.contains(document.activeElement);
    this.cards = cards.slice();
    this.keys = keysOf(cards);
    const kept = new Set(this.keys);
    for (const k of [...this.selected]) if (!kept.has(k)) this.selected.delete(k);
    if (!kept.has(this.focusKey)) this.focusKey = this.keys[0] ?? null;
    this.box.replaceChildren(...cards.map((card, i) => {
      const key = this.keys[i];
      // named by hidden words ("king of hearts"), not an aria-label: a label must hold the text
      // drawn on the card, and the card's face is a picture of it (aria-hidden)
      return h("button.card", {
        type: "button", testid: "card", dataset: { card, key },
        onclick: () => { this.focusKey = key; this.toggle(key); },
      }, h("span.sr-only", { text: cardLabel(card) }), cardSvg(card));
    }));
    this.box.style.setProperty("--n", String(cards.length));
    this.sync();
    if (hadFocus) this.focus();
  }

  sync() {
    for (const b of this.box.children) {
      const key = b.dataset.key;
      b.setAttribute("aria-pressed", this.selected.has(key) ? "true" : "false");
      b.tabIndex = key === this.focusKey ? 0 : -1;
      const dim = this.usable !== null && !this.usable.has(b.dataset.card);
      b.classList.toggle("unusable", dim);
      // a dimmed card keeps its name ("4 of hearts"); its description says why
      if (dim) b.setAttribute("aria-describedby", this.why.id); else b.removeAttribute("aria-describedby");
    }
  }

  /** Dim the cards that no play of ``legal`` (the moves' texts) holds (null: none dimmed).
   * The cards stay selectable: a player may still pick them to see why. */
  dim(legal) {
    this.usable = legal === null ? null : new Set(legal.flatMap((m) => m.split(" ")));
    this.why.textContent = t("web.hand.unusable");  // in the page's language now
    this.sync();
  }

  toggle(key) {
    if (this.selected.has(key)) this.selected.delete(key); else this.selected.add(key);
    this.sync();
    this.onChange();
  }

  clear() { this.selected.clear(); this.sync(); this.onChange(); }

  /** Select exactly these cards (a hint). */
  select(cards) {
    this.selected.clear();
    const free = this.keys.slice();
    for (const card of cards) {
      const i = free.findIndex((k) => k && k.startsWith(`${card}#`));
      if (i >= 0) { this.selected.add(free[i]); free[i] = null; }
    }
    this.sync();
    this.onChange();
  }

  /** The selected cards as a play's text, low to high as the hand is sorted. */
  text() { return this.keys.filter((k) => this.selected.has(k)).map((k) => k.split("#")[0]).join(" "); }

  focus() {
    const b = this.box.querySelector(`[data-key="${CSS.escape(this.focusKey || "")}"]`);
    if (b) b.focus({ preventScroll: true });
  }

  key(ev) {
    if (!(ev.target instanceof HTMLElement) || !ev.target.dataset.key) return;
    const i = this.keys.indexOf(ev.target.dataset.key);
    let j = null;
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") j = Math.min(this.keys.length - 1, i + 1);
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") j = Math.max(0, i - 1);
    else if (ev.key === "Home") j = 0;
    else if (ev.key === "End") j = this.keys.length - 1;
    else if (ev.key === "Escape") { this.clear(); ev.preventDefault(); return; }
    if (j === null) return;
    ev.preventDefault();
    this.focusKey = this.keys[j];
    this.sync();
    this.focus();
  }
}
