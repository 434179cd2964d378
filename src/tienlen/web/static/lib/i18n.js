// The page's words in the chosen language: the page's part of the server's catalogue
// (/i18n/en.json, /i18n/vi.json: only the words the page's files name). The language: the switch's choice (remembered in localStorage),
// else the browser's (Accept-Language, told by the server; navigator.languages), else English.
export const LANGS = ["en", "vi"];
const KEY = "tienlen-lang";
let messages = {};  // the language's words (the server fills in English where it has none)
export let lang = "en";

function fromList(list) {
  for (const tag of list || []) {
    const base = String(tag).toLowerCase().split(/[-_;,]/)[0].trim();
    if (LANGS.includes(base)) return base;
  }
  return null;
}

export function chooseLang() {
  const saved = localStorage.getItem(KEY);
  if (LANGS.includes(saved)) return saved;
  const header = document.documentElement.dataset.acceptLang;  // the server read Accept-Language
  return fromList(header ? header.split(",") : []) || fromList(navigator.languages) || "en";
}

export function setLang(code) {
  localStorage.setItem(KEY, code);
}

async function load(code) {
  const res = await fetch(`/i18n/${code}.json`);
  return res.ok ? res.json() : {};
}

export async function init() {
  lang = chooseLang();
  messages = await load(lang);
  document.documentElement.lang = lang;
  applyStatic(document);
}

/** A message with its {placeholders} filled: t("end.wins", { name }). */
export function t(key, params = {}) {
  const text = messages[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** A preset by its display name in the page's language ("Miền Nam"), its id for one the
 * catalogue does not name; and its one line of description ("" when there is none). */
export function presetName(id) {
  const key = `preset.name.${id}`;
  return key in messages ? t(key) : id;
}

/** A table's name in the reader's words: a name its creator gave, as it is; one the room made
 * (``info.title``) said for the table's people ("Lan's table", "Bàn của Lan", "Quick match ·
 * Miền Nam (Southern)"), never by the table's id. ``info``: a table's info, or its ``name``,
 * ``title`` and ``people`` (the players' names). */
export function tableTitle(info) {
  const made = info.title;
  if (!made) return info.name;
  if (made.kind === "of" && made.player) return t("web.table_of", { name: made.player });
  if (made.kind === "quick") return made.family ? t("web.table_quick", { family: familyName(made.family) }) : t("web.table_quick_any");
  const people = info.people || (info.seats || []).filter((s) => s.kind === "human" && s.name).map((s) => s.name);
  return people.length ? t("web.table_of", { name: listAnd(people) }) : t("web.table_bots");
}

/** A rating family's name: "Miền Nam (Southern)", "Other rule books". */
export function familyName(family) {
  return t(`web.board.family.${family}`);
}

export function presetLine(id) {
  const key = `preset.desc.${id}`;
  return key in messages ? t(key) : "";
}

/** A seat's name as shown: a bot's "Bot N" (the name the records keep, in every language) in
 * the page's words ("Máy N"); a player's own name as it is. */
export function seatName(seat) {
  const bot = seat.kind === "bot" && /^Bot ([1-9]\d*)$/.exec(seat.name || "");
  return bot ? t("tui.bot_name", { n: Number(bot[1]) }) : seat.name;
}

/** Names in a list: "Lan", "Lan and Minh", "Lan, Minh and Hoa" (list.and). */
export function listAnd(names) {
  if (names.length < 2) return names.join("");
  return t("list.and", { first: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

/** A message with a count: key.one for 1, key.other otherwise ({n} is the count). */
export function tn(key, n, params = {}) {
  return t(`${key}.${n === 1 ? "one" : "other"}`, { ...params, n });
}

/** The page's fixed words: data-i18n (text), data-i18n-placeholder, data-i18n-aria-label. */
export function applyStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of root.querySelectorAll("[data-i18n-aria-label]")) el.setAttribute("aria-label", t(el.dataset.i18nAriaLabel));
  const sw = root.getElementById ? root.getElementById("lang") : null;
  if (sw) {
    sw.value = lang;
    sw.onchange = () => { setLang(sw.value); location.reload(); };
    // a phone's header is narrow: the languages by their codes (each option keeps its name
    // as its label, read out in full)
    const narrow = window.matchMedia("(max-width: 420px)");
    const label = () => {
      for (const option of sw.options) {
        option.dataset.name ??= option.textContent;
        option.label = narrow.matches ? option.value.toUpperCase() : option.dataset.name;
        option.setAttribute("aria-label", option.dataset.name);
      }
    };
    label();
    narrow.addEventListener?.("change", label);
  }
}
