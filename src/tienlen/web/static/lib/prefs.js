// The player's own settings for how the table looks and sounds, kept in this browser
// (localStorage) and applied to the page as attributes of <html> that style.css reads:
// data-motion ("on" | "off": off also under prefers-reduced-motion), data-deck ("two" | "four":
// clubs green and diamonds blue), data-contrast ("on" | "off"). Sound is off until switched on.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "tienlen.prefs";
const DEFAULTS = { motion: true, sound: false, vibrate: true, deck: "two", contrast: false };
const listeners = [];

function load() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "{}");
    const out = { ...DEFAULTS };
    for (const [k, v] of Object.entries(kept)) {
      if (k in DEFAULTS && typeof v === typeof DEFAULTS[k]) out[k] = v;
    }
    if (out.deck !== "four") out.deck = "two";
    return out;
  } catch { return { ...DEFAULTS }; }
}

let prefs = load();

/** One setting's value now. */
export function pref(name) { return prefs[name]; }

/** Whether moving cards and moments are shown: the switch, and the system's reduced motion. */
export function motionOn() {
  return prefs.motion && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Call ``fn(prefs)`` whenever a setting changes. */
export function onPrefs(fn) { listeners.push(fn); }

/** Change one setting: kept, applied, told to the listeners. */
export function setPref(name, value) {
  prefs = { ...prefs, [name]: value };
  try { localStorage.setItem(KEY, JSON.stringify(prefs)); } catch { /* private mode: this page only */ }
  apply();
  for (const fn of listeners) fn(prefs);
}

/** Put the settings on <html> for the style sheet. */
export function apply() {
  const root = document.documentElement;
  root.dataset.motion = motionOn() ? "on" : "off";
  root.dataset.deck = prefs.deck;
  root.dataset.contrast = prefs.contrast ? "on" : "off";
}

function toggle(name, label, hint) {
  const id = `pref-${name}`;
  const input = h("input", { type: "checkbox", id, testid: id, role: "switch" });
  input.checked = name === "deck" ? prefs.deck === "four" : Boolean(prefs[name]);
  input.addEventListener("change", () => setPref(name, name === "deck" ? (input.checked ? "four" : "two") : input.checked));
  return h("div.pref", {},
    h("label.check", { for: id }, input, " ", h("span", { text: t(label) })),
    hint ? h("p.muted.pref-hint", { text: t(hint) }) : "");
}

/** The settings dialog, opened from the header's button. */
export function openPrefs() {
  const old = document.getElementById("prefs-dialog");
  if (old) old.remove();
  const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const close = h("button.primary", { type: "button", testid: "prefs-close", text: t("web.prefs.close") });
  const dialog = h("dialog.moderation", { id: "prefs-dialog", testid: "prefs-dialog", "aria-labelledby": "prefs-title" },
    h("h2", { id: "prefs-title", text: t("web.prefs.title") }),
    toggle("motion", "web.prefs.motion", reduced ? "web.prefs.motion_system" : ""),
    toggle("sound", "web.prefs.sound", "web.prefs.sound_hint"),
    navigator.vibrate ? toggle("vibrate", "web.prefs.vibrate") : "",
    toggle("deck", "web.prefs.four_colour", "web.prefs.four_colour_hint"),
    toggle("contrast", "web.prefs.contrast"),
    h("div.dialog-buttons", {}, close));
  close.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

/** The header's settings button, and the settings applied at once. */
export function mountPrefs() {
  apply();
  window.matchMedia("(prefers-reduced-motion: reduce)").addEventListener?.("change", apply);
  const open = document.getElementById("prefs-open");
  if (open) {
    open.title = t("web.prefs.open");
    open.addEventListener("click", openPrefs);
  }
}
