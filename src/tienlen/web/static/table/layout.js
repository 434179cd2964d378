// The table's layout. On a phone the hand and its buttons (the dock) are fixed at the bottom of
// the screen: the felt is sized so that your own seat's plate sits above the dock, whatever the
// header and the table's bar take (they wrap differently in each language), and the setup (your
// name, Add a bot, Start) moves below the felt, clear of the seats round it, and what is at
// stake under chặt chồng moves into the dock (in the felt it covered the side seats' cards). On a wider screen
// the dock follows the felt, and the felt is sized so that the hand and Play fit in the window
// too (a 1280x800 laptop screen had Play below the fold), between a smallest and a largest felt.
// a phone upright, or on its side (style.css's same two queries): the dock fixed at the bottom
const PHONE = window.matchMedia("(max-width: 640px), (orientation: landscape) and (max-height: 500px)");
const SIDEWAYS = window.matchMedia("(orientation: landscape) and (max-height: 500px)");
const ROOM_FOR_PLATE = 34;  // px below the felt: the lower half of your plate and its marks
const SMALLEST = 280;
const SIDEWAYS_SMALLEST = 130;  // on its side your plate is the dock itself: nothing below the felt
const DESK_SMALLEST = 300;
const DESK_LARGEST = 560;
const DESK_GAP = 12;  // px kept free under the dock
// the tallest the dock has been at this window's width: the felt keeps its size when the hand
// empties at the end of a hand (it grew under the end panel and shrank at the next deal)
let deskDock = { width: 0, height: 0 };

/** Fit the felt (and place the setup) for the screen now. */
export function fitTable() {
  const felt = document.getElementById("felt");
  const dock = document.getElementById("dock");
  const setup = document.getElementById("setup");
  const center = felt && felt.querySelector(".center");
  const below = document.getElementById("setup-below");
  if (!felt || !dock || !setup || !center || !below) return;
  const home = PHONE.matches ? below : center;
  if (setup.parentElement !== home) home.prepend(setup);
  const stake = document.getElementById("at-stake");
  const trick = document.getElementById("trick");
  if (stake && trick) {
    const stakeHome = PHONE.matches ? dock : trick;
    if (stake.parentElement !== stakeHome) {
      if (PHONE.matches) dock.prepend(stake); else trick.append(stake);
    }
  }
  if (dock.hidden) { felt.style.height = ""; return; }
  const top = felt.getBoundingClientRect().top + window.scrollY;
  if (PHONE.matches) {
    const sideways = SIDEWAYS.matches;
    const room = window.innerHeight - top - dock.offsetHeight - (sideways ? 6 : ROOM_FOR_PLATE);
    felt.style.height = `${Math.max(sideways ? SIDEWAYS_SMALLEST : SMALLEST, Math.floor(room))}px`;
    return;
  }
  if (deskDock.width !== window.innerWidth) deskDock = { width: window.innerWidth, height: 0 };
  deskDock.height = Math.max(deskDock.height, dock.offsetHeight);
  const margin = parseFloat(getComputedStyle(felt).marginBottom) || 0;
  const room = window.innerHeight - top - margin - deskDock.height - DESK_GAP;
  felt.style.height = `${Math.min(DESK_LARGEST, Math.max(DESK_SMALLEST, Math.floor(room)))}px`;
}

/** Keep the table fitted as the screen turns, the dock grows or the bar wraps. */
export function watchLayout() {
  const again = () => requestAnimationFrame(fitTable);
  window.addEventListener("resize", again);
  PHONE.addEventListener?.("change", again);
  SIDEWAYS.addEventListener?.("change", again);
  if (window.ResizeObserver) {
    const seen = new ResizeObserver(again);
    for (const id of ["dock", "room-bar"]) {
      const el = document.getElementById(id);
      if (el) seen.observe(el);
    }
  }
  fitTable();
}
