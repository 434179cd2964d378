// Numbers in the reader's language: a count or a rating, a signed change.
import { lang } from "./i18n.js";

/** A number in the reader's language, with ``digits`` decimals. */
export function num(x, digits = 1) {
  return new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
}

/** A signed change: +12, −8 (the minus sign, not a hyphen). */
export function signed(x, digits = 1) {
  const text = num(Math.abs(x), digits);
  return x > 0 ? `+${text}` : x < 0 ? `\u2212${text}` : text;
}

/** A rating as players see it: its number, with "?" while it is provisional (its first rated
 * hands), as chess sites write it. */
export function ratingText(rating, provisional = false) {
  return `${Math.round(rating)}${provisional ? "?" : ""}`;
}
