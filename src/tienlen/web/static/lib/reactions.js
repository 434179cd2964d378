// The table's reactions drawn as pictures, as the bot's face is: the emoji font a system lacks
// would show an empty box. Each reaction travels as its emoji (the server's catalogue: room/chat.py
// EMOJI, in its order) and is named in the page's words for screen readers.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const SKIN = "#f6c445", INK = "#3a2a12", TEAR = "#58aef0";
const face = (fill = SKIN) => `<circle cx="12" cy="12" r="10" fill="${fill}"/>`;
const eyes = `<circle cx="8.6" cy="10" r="1.4" fill="${INK}"/><circle cx="15.4" cy="10" r="1.4" fill="${INK}"/>`;
const stroke = `fill="none" stroke="${INK}" stroke-width="1.6" stroke-linecap="round"`;

// emoji -> [its name's key, the drawing in a 24 x 24 box]
const DRAWN = {
  "👍": ["thumbs_up", `<path d="M3.5 10.5h3.6v9.5H3.5z" fill="#9fb4c4"/>
    <path d="M8.3 10.3 12 4.2c.8-1.3 3-.9 2.8.9l-.6 3.7h4.6c1.5 0 2.5 1.3 2.2 2.7l-1.5 6.6c-.3 1.1-1.2 1.9-2.4 1.9H8.3z" fill="${SKIN}"/>`],
  "👏": ["clap", `<rect x="4.2" y="6.5" width="7" height="13.5" rx="3.5" fill="${SKIN}" transform="rotate(-22 7.7 13.2)"/>
    <rect x="11.6" y="6.5" width="7" height="13.5" rx="3.5" fill="#e8a92c" transform="rotate(14 15.1 13.2)"/>
    <path d="M6 3.6 7 5.2M10.2 2.4v2M14.6 3.2l-.9 1.6" fill="none" stroke="${SKIN}" stroke-width="1.6" stroke-linecap="round"/>`],
  "😂": ["joy", `${face()}<path d="M6.6 9.8q1.6-1.8 3.2 0M14.2 9.8q1.6-1.8 3.2 0" ${stroke}/>
    <path d="M6.8 13.2h10.4a5.2 5.2 0 0 1-10.4 0z" fill="${INK}"/>
    <path d="M3.2 11.2q-1.8 2.6.1 3.9 1.9-1.3.1-3.9zM20.8 11.2q-1.8 2.6-.1 3.9 1.9-1.3.1-3.9z" fill="${TEAR}"/>`],
  "😮": ["surprise", `${face()}${eyes}<ellipse cx="12" cy="16" rx="2.4" ry="2.8" fill="${INK}"/>`],
  "😢": ["sad", `${face()}${eyes}<path d="M8.4 17.2q3.6-3.2 7.2 0" ${stroke}/>
    <path d="M15.8 12.2q-1.5 2.3 0 3.3 1.5-1 0-3.3z" fill="${TEAR}"/>`],
  "😠": ["angry", `${face("#f29a3d")}<path d="M6.6 7.4 10 9.2M17.4 7.4 14 9.2" ${stroke}/>
    <circle cx="8.8" cy="11" r="1.3" fill="${INK}"/><circle cx="15.2" cy="11" r="1.3" fill="${INK}"/>
    <path d="M8.6 17q3.4-2.6 6.8 0" ${stroke}/>`],
  "🔥": ["fire", `<path d="M12 1.8c1.3 4.2 6.6 6.2 6.6 12.4a6.6 6.6 0 0 1-13.2 0c0-3.2 2-5.4 3.2-6.6 0 2.2 1 3.4 2.2 3.4 0-3.3-.8-6.2 1.2-9.2z" fill="#ee5a24"/>
    <path d="M12 11.6c1.1 2 3.3 3.1 3.3 5.6a3.3 3.3 0 0 1-6.6 0c0-2.1 2.2-3.4 3.3-5.6z" fill="${SKIN}"/>`],
  "🙏": ["thanks", `<path d="M11.4 2.8c-1.1 0-1.7.9-1.7 1.9v7.2L6.3 16.5v3.9h3.2l1.9-2.7z" fill="${SKIN}"/>
    <path d="M12.6 2.8c1.1 0 1.7.9 1.7 1.9v7.2l3.4 4.6v3.9h-3.2l-1.9-2.7z" fill="#e8a92c"/>
    <path d="M5.4 19.6h4.6v2.6H5.4zM14 19.6h4.6v2.6H14z" fill="#9fb4c4"/>`],
};

/** The reaction's name in the page's words ("thumbs up"); an unknown one is itself. */
export function reactionName(emoji) {
  const drawn = DRAWN[emoji];
  return drawn ? t(`chat.emoji.${drawn[0]}`) : emoji;
}

/** The reaction drawn (an image named in words); an emoji this page does not draw, as text. */
export function reactionPicture(emoji) {
  const drawn = DRAWN[emoji];
  if (!drawn) return document.createTextNode(emoji);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "reaction");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", reactionName(emoji));
  svg.dataset.emoji = emoji;
  svg.innerHTML = drawn[1];
  return svg;
}

/** A button's content: the picture, its name read out by the button's label instead. */
export function reactionIcon(emoji) {
  const picture = reactionPicture(emoji);
  if (picture instanceof Element) {
    picture.removeAttribute("role");
    picture.removeAttribute("aria-label");
    picture.setAttribute("aria-hidden", "true");
  }
  return h("span.reaction-box", {}, picture);
}
