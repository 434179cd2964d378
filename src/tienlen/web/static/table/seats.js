// The seats around the felt: yourself at the bottom, the others in the order of play
// (anticlockwise, so the next player sits on your right), each with a fan of card backs.
import { backsFan } from "../lib/cards.js";
import { h, keepFocus, keepInside } from "../lib/dom.js";
import { seatName, t, tn } from "../lib/i18n.js";

const SVG = "http://www.w3.org/2000/svg";

/** A bot's face, drawn (no emoji font needed). */
export function botFace() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "bot-face");
  svg.innerHTML = '<path d="M12 2v3" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>' +
    '<rect x="4" y="6" width="16" height="13" rx="4" fill="currentColor"/>' +
    '<circle cx="9" cy="12" r="2" fill="#24445e"/><circle cx="15" cy="12" r="2" fill="#24445e"/>' +
    '<rect x="9" y="15.5" width="6" height="1.6" rx=".8" fill="#24445e"/>';
  return svg;
}

/** Place ``i`` (0: first) of ``n`` players in words; the catalogue may name the last place
 * apart (Vietnamese: Bét). */
export function place(i, n) {
  const last = t("place.last");
  if (n > 2 && i === n - 1 && last) return last;
  return t(`place.${i + 1}`);
}

/** Where seat ``r`` places after you (0: you) sits, in percent of the felt (x, y). */
export function seatPosition(r, n) {
  if (r === 0) return [50, 100];
  const a = (Math.PI / 2) - (2 * Math.PI * r) / n;
  // an ellipse a little inside the felt's edge; the top seats a little lower than the edge
  return [50 + 50 * Math.cos(a), 50 + 52 * Math.sin(a)];
}

/** Seats from first to last: the finish order, then whoever still held cards (fewest first). */
export function placesOf(view) {
  const order = view.finish_order.slice();
  const rest = view.counts.map((c, s) => [c, s]).filter(([, s]) => !order.includes(s))
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, s]) => s);
  return [...order, ...rest];
}

/** Whether the player at seat ``s`` has asked for the next hand (the hand is over). */
const isReady = (info, view, seat) => Boolean(view && view.is_over && (info.ready || []).includes(seat));

function seatMarks(s, view, info) {
  const marks = [];
  if (!view) return marks;
  if (isReady(info, view, s.seat)) marks.push(h("span.mark.ready", { testid: "seat-ready", text: t("web.seat.ready") }));
  const out = (view.is_over ? placesOf(view) : view.finish_order).indexOf(s.seat);
  if (out >= 0) marks.push(h("span.mark.out", { testid: "seat-place", text: view.is_over ? place(out, view.counts.length) : t("web.seat.out_mark", { place: place(out, view.counts.length) }) }));
  else if (view.passed[s.seat] && !view.is_over) marks.push(h("span.mark.passed", { text: t("web.seat.passed") }));
  if (s.seat === view.seat && view.decision && view.decision.kind === "free_chop") {
    marks.push(h("span.mark.free", { testid: "free-chop-mark", text: t("web.seat.free_chop") }));
  }
  return marks;
}

let menuOpen = null;  // the seat whose ⋯ menu is open (kept open across the seats' redrawing)

/** The ⋯ menu of another person's seat: their card (who they are, and befriending them), report
 * or block, mute or unmute, and for the host remove (before the start) or kick (after it, a
 * player who is away), each with a confirm. */
function seatMenu(s, ctx, host, close) {
  const { info, onReport, muted = new Set(), onMute, onRemove, onKick, onProfile } = ctx;
  const name = seatName(s);
  const items = [];
  if (onProfile) {
    items.push(h("button", { type: "button", testid: "seat-card", dataset: { key: `card-${s.seat}` }, role: "menuitem",
      text: t("web.seat.card"), onclick: () => { close(); onProfile(s.seat, name); } }));
  }
  items.push(h("button", { type: "button", testid: "seat-report", dataset: { key: `report-${s.seat}` }, role: "menuitem",
    text: t("web.seat.report"), onclick: () => { close(); onReport(s.seat, name); } }));
  if (onMute) {
    const on = muted.has(s.seat);
    items.push(h("button", { type: "button", testid: "seat-mute", dataset: { key: `mute-${s.seat}` }, role: "menuitem",
      text: on ? t("web.seat.unmute") : t("web.seat.mute"), onclick: () => onMute(s.seat, !on) }));
  }
  if (host && info.status === "open" && onRemove) {
    items.push(h("button.danger", { type: "button", testid: "seat-remove", role: "menuitem", text: t("web.seat.remove_player"),
      onclick: () => { if (window.confirm(t("web.seat.remove_confirm", { name }))) { close(); onRemove(s.seat); } } }));
  }
  if (host && info.status !== "open" && !s.connected && onKick) {  // the server checks the away timeout
    items.push(h("button.danger", { type: "button", testid: "seat-kick", role: "menuitem", text: t("web.seat.kick"),
      onclick: () => { if (window.confirm(t("web.seat.kick_confirm", { name }))) { close(); onKick(s.seat); } } }));
  }
  return h("div.seat-menu", {
    testid: "seat-menu", role: "menu", id: `seat-menu-${s.seat}`, "aria-label": t("web.seat.menu_label", { name }),
    onkeydown: (ev) => { if (ev.key === "Escape") close(); },
  }, items);
}

/**
 * Draw every seat into ``box``. ``ctx``: { info, view, me (your seat, null: watching), onRemove(seat), onSit(seat) (when watching),
 * onReport(seat, name) (another person's seat: report or block them), back (the seats you left
 * that a bot plays now: yours to take back), onBack(seat), muted (the seats you muted),
 * onMute(seat, on), onKick(seat) (the host: a player who is away), onProfile(seat, name) (their card) }.
 */
export function renderSeats(box, ctx) {
  const { info, view, me, onRemove, onSit, onReport, back = [], onBack } = ctx;
  const n = info.players;
  const base = me ?? 0;
  const canRemove = info.host_seat !== undefined && info.host_seat !== null && info.host_seat === me &&
    info.status === "open";
  box.replaceChildren();
  box.dataset.players = n;
  for (const s of info.seats) {
    const r = (s.seat - base + n) % n;
    const [x, y] = seatPosition(r, n);
    const mine = s.seat === me;
    const turn = view && !view.is_over && view.turn === s.seat;
    const classes = ["seat", `r${r}`];
    if (mine) classes.push("me");
    if (turn) classes.push("turn");
    if (s.kind === "empty") classes.push("empty");
    if (view && view.finish_order.includes(s.seat)) classes.push("done");
    if (view && view.passed[s.seat] && !view.is_over) classes.push("passed");
    if (view && view.table_seat === s.seat && view.table) classes.push("owns-table");
    const last = view && !view.is_over && view.counts[s.seat] === 1;  // one card left: watch out
    if (last) classes.push("last-card");
    if (y < 25) classes.push("at-top"); else if (y > 75) classes.push("at-bottom");
    if (y < 5) classes.push("at-rim");  // opposite you, on the felt's top edge: its fan would stick out above
    if (x < 20) classes.push("at-left"); else if (x > 80) classes.push("at-right");
    const name = s.kind === "empty" ? t("web.seat.empty") : (mine ? t("web.you_suffix", { name: seatName(s) }) : seatName(s));
    const who = [];
    if (s.kind === "bot") who.push(t("web.seat.bot", { level: t(`bot.level.${s.level}`) }));
    if (s.kind === "human") who.push(s.account ? t("web.seat.account") : t("web.seat.guest"));  // told apart at a glance
    if (s.kind === "human") who.push(s.connected ? t("web.seat.here") : t("web.seat.away"));
    if (s.bot_playing) who.push(t("web.seat.bot_playing"));
    const count = view ? view.counts[s.seat] : null;
    const labelBits = [name, ...who];
    if (count !== null) labelBits.push(tn("web.cards", count));
    if (last) labelBits.push(t("web.seat.last_card"));
    if (turn) labelBits.push(t("web.seat.to_play"));
    if (view && view.dealer === s.seat) labelBits.push(t("web.seat.dealer"));
    if (view && view.passed[s.seat] && !view.is_over) labelBits.push(t("web.seat.passed"));
    const out = view ? (view.is_over ? placesOf(view) : view.finish_order).indexOf(s.seat) : -1;
    if (out >= 0) labelBits.push(view.is_over ? t("web.seat.place", { place: place(out, n) }) : t("web.seat.out", { place: place(out, n) }));
    if (isReady(info, view, s.seat)) labelBits.push(t("web.seat.ready"));
    const div = h("div", {
      className: classes.join(" "), testid: "seat", dataset: { seat: s.seat }, role: "group",
      "aria-label": labelBits.join(", "),
    });
    div.style.setProperty("--x", `${x}%`);
    div.style.setProperty("--y", `${y}%`);
    if (view && !mine && count) {
      div.append(h("div.seat-hand", {}, backsFan(count, n > 5 ? 8 : 13),
        h("span.count", { testid: "seat-count", "aria-hidden": "true", text: String(count) })));
    }
    // an account's name links to its profile (in a new tab: the table stays open); a guest's is plain
    const shown = s.account ? h("a.account-link", {
      href: `/p/${encodeURIComponent(s.name)}`, target: "_blank", rel: "noopener", testid: "seat-profile",
      title: t("web.seat.profile", { name: seatName(s) }), text: name,
    }) : name;
    const plate = h(s.account ? "div.plate.account" : "div.plate", {},
      h("div.avatar", { "aria-hidden": "true" },
        s.kind === "empty" ? "+" : (s.kind === "bot" ? botFace() : (s.name || "?").slice(0, 1).toUpperCase())),
      h("div.who", {},
        h("b.seat-name", {}, shown),
        h("small", { text: who.join(" · ") })),
      h("div.marks", {}, seatMarks(s, view, info)));
    if (view && view.dealer === s.seat) plate.append(h("span.mark.dealer", { title: t("web.seat.dealer"), text: t("web.seat.dealer_mark") }));
    if (last) plate.append(h("span.last-mark", { testid: "last-card", "aria-hidden": "true", text: t("web.seat.last_card_mark") }));
    if (turn) plate.append(h("span.turn-mark", { testid: "turn-mark", text: mine ? t("web.seat.your_turn") : t("web.seat.to_play") }));
    plate.append(h("span.countdown", { testid: "countdown", hidden: true, role: "timer", "aria-live": "off" }));
    div.append(plate);
    if (s.kind === "empty" && onSit && info.status === "open") {
      div.append(h("button.small.sit", {
        testid: "sit-here", dataset: { key: `sit-${s.seat}` }, text: t("web.seat.sit"),
        "aria-label": t("web.seat.sit_label", { n: s.seat + 1 }), onclick: () => onSit(s.seat),
      }));
    }
    if (onBack && s.kind === "bot" && back.includes(s.seat)) {
      div.append(h("button.sit.take-back", {
        type: "button", testid: "take-back", dataset: { key: `back-${s.seat}` }, text: t("web.room.back"),
        "aria-label": t("web.room.back_label", { n: s.seat + 1 }), onclick: () => onBack(s.seat),
      }));
    }
    if (onReport && !mine && s.kind === "human") {
      const open = menuOpen === s.seat;
      plate.append(h("button.small.report-seat", {
        type: "button", testid: "report-seat", dataset: { key: `menu-${s.seat}` }, "aria-haspopup": "menu",
        "aria-expanded": open ? "true" : "false", "aria-controls": open ? `seat-menu-${s.seat}` : undefined,
        "aria-label": t("web.seat.menu_label", { name: seatName(s) }), title: t("web.seat.menu_label", { name: seatName(s) }),
        text: "⋯", onclick: () => { menuOpen = menuOpen === s.seat ? null : s.seat; keepFocus(box, () => renderSeats(box, ctx)); },
      }));
      // an act of the menu closes it at once (the seats drawn again): it never lingers, offering
      // what was just done
      const close = () => { menuOpen = null; keepFocus(box, () => renderSeats(box, ctx)); };
      if (open) {
        const menu = seatMenu(s, ctx, info.host_seat === me && me !== null, close);
        div.append(menu);
        keepInside(menu);
      }
      if (ctx.muted && ctx.muted.has(s.seat)) plate.classList.add("muted-seat");
    }
    if (canRemove && !mine && s.kind !== "empty" && (s.kind === "bot" || !s.connected)) {
      div.append(h("button.small.remove", {
        testid: "remove-seat", dataset: { key: `remove-${s.seat}` },
        "aria-label": t("web.seat.remove_label", { name: seatName(s), n: s.seat + 1 }), text: t("web.seat.remove"),
        onclick: () => onRemove(s.seat),
      }));
    }
    box.append(div);
  }
}

/** Show the countdown on the seat whose turn it is; ``deadline`` in server seconds (null: none). */
export function tickCountdown(box, turnSeat, deadline, offset, total = 0) {
  for (const c of box.querySelectorAll("[data-testid=countdown]")) {
    const seatBox = c.closest("[data-seat]");
    const seat = Number(seatBox.dataset.seat);
    if (deadline === null || seat !== turnSeat) {
      c.hidden = true;
      seatBox.classList.remove("timed", "low");
      continue;
    }
    const left = Math.max(0, deadline - (Date.now() / 1000 + offset));
    const secs = Math.ceil(left);
    const text = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
    c.hidden = false;
    if (c.textContent !== text) c.textContent = text;
    c.classList.toggle("low", left <= 5);
    c.setAttribute("aria-label", tn("web.seat.seconds_left", secs));
    // the ring around the plate: the share of the turn's time still left
    seatBox.classList.add("timed");
    seatBox.classList.toggle("low", left <= 5);
    seatBox.style.setProperty("--left", String(total > 0 ? Math.min(1, left / total) : 1));
  }
}
