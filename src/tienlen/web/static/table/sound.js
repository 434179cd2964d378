// The table's sounds, made in the page with Web Audio (no files): a play, a pass, your turn, a
// chop and the turn timer's last seconds. Off until the player switches them on (prefs.js);
// no AudioContext exists before that. Vibration on a phone for your turn, where allowed.
import { onPrefs, pref } from "../lib/prefs.js";
import { asked, waited } from "./decision.js";

let audio = null;

function context() {
  if (!pref("sound")) return null;
  if (!audio) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    audio = new Ctx();
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

onPrefs(() => { if (!pref("sound") && audio) { audio.close().catch(() => {}); audio = null; } });

/** A short tone: ``freq`` Hz (gliding to ``to``), ``length`` seconds, from ``at`` seconds on. */
function tone(ctx, { freq, to = freq, length = 0.12, at = 0, type = "sine", gain = 0.18 }) {
  const start = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  osc.frequency.exponentialRampToValueAtTime(to, start + length);
  amp.gain.setValueAtTime(0.0001, start);
  amp.gain.exponentialRampToValueAtTime(gain, start + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

/** A burst of noise (a card slapped down, a bomb landing). */
function noise(ctx, { length = 0.08, at = 0, gain = 0.25, cutoff = 2500 }) {
  const start = ctx.currentTime + at;
  const frames = Math.ceil(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 2;
  const src = ctx.createBufferSource();
  src.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "lowpass";
  filter.frequency.value = cutoff;
  const amp = ctx.createGain();
  amp.gain.value = gain;
  src.connect(filter).connect(amp).connect(ctx.destination);
  src.start(start);
}

const SOUNDS = {
  play: (ctx) => { noise(ctx, { length: 0.07, cutoff: 3000 }); tone(ctx, { freq: 520, to: 380, length: 0.06, gain: 0.06 }); },
  pass: (ctx) => tone(ctx, { freq: 300, to: 240, length: 0.1, type: "triangle", gain: 0.08 }),
  turn: (ctx) => { tone(ctx, { freq: 660, length: 0.12 }); tone(ctx, { freq: 880, length: 0.18, at: 0.12 }); },
  chop: (ctx) => { noise(ctx, { length: 0.35, gain: 0.45, cutoff: 900 }); tone(ctx, { freq: 120, to: 50, length: 0.4, type: "square", gain: 0.12 }); },
  tick: (ctx) => tone(ctx, { freq: 1200, length: 0.04, type: "square", gain: 0.05 }),
};

export const SOUND_NAMES = Object.keys(SOUNDS);
export const played = [];  // the sounds made, newest last (the page's tests read it)
window.tienlenSounds = played;

/** Make the sound ``name`` (nothing while sound is off). */
export function sound(name) {
  const ctx = context();
  if (!ctx || !SOUNDS[name]) return;
  SOUNDS[name](ctx);
  played.push(name);
  if (played.length > 50) played.shift();
}

/** A buzz on a phone for your turn, where the browser allows it and the switch is on. */
export function buzz() {
  if (pref("vibrate") && navigator.vibrate && navigator.userActivation?.hasBeenActive) navigator.vibrate(120);
}

/** The sounds a new state calls for, from the one before, seen from ``seat``. */
export function cues(prev, view, seat) {
  if (!view || !prev || prev.is_over) return [];
  const out = [];
  const fresh = view.events.slice(prev.events.length);
  if (view.events.length < prev.events.length) return [];  // a new hand
  const chops = (p) => (p.payments || []).filter((x) => x.kind === "chop").length;
  if (chops(view) > chops(prev)) out.push("chop");
  else if (fresh.some((e) => e.kind === "play")) out.push("play");
  else if (fresh.some((e) => e.kind === "pass")) out.push("pass");
  if (waited(asked(view, seat)) && !waited(asked(prev, seat))) out.push("turn");  // asked, on turn
  return out;
}
