// The table's layout on a phone, where the hand and its buttons (the dock) are fixed at the
// bottom of the screen: the felt is sized so that your own seat's plate sits above the dock,
// whatever the header and the table's bar take (they wrap differently in each language), and
// the setup (your name, Add a bot, Start) moves below the felt, clear of the seats round it.
const PHONE = window.matchMedia("(max-width: 640px)");
const ROOM_FOR_PLATE = 34;  // px below the felt: the lower half of your plate and its marks
const SMALLEST = 280;

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
  if (!PHONE.matches || dock.hidden) { felt.style.height = ""; return; }
  const top = felt.getBoundingClientRect().top + window.scrollY;
  const room = window.innerHeight - top - dock.offsetHeight - ROOM_FOR_PLATE;
  felt.style.height = `${Math.max(SMALLEST, Math.floor(room))}px`;
}

/** Keep the table fitted as the screen turns, the dock grows or the bar wraps. */
export function watchLayout() {
  const again = () => requestAnimationFrame(fitTable);
  window.addEventListener("resize", again);
  PHONE.addEventListener?.("change", again);
  if (window.ResizeObserver) {
    const seen = new ResizeObserver(again);
    for (const id of ["dock", "room-bar"]) {
      const el = document.getElementById(id);
      if (el) seen.observe(el);
    }
  }
  fitTable();
}
