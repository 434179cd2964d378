// A small element builder: h("button.primary", { onclick, dataset: { testid: "x" } }, "text").
export function h(tag, props = {}, ...children) {
  const [name, ...classes] = tag.split(".");
  const node = document.createElement(name || "div");
  if (classes.length) node.className = classes.join(" ");
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "testid") node.dataset.testid = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else if (k === "className") node.className = v;
    else if (k in node && typeof v !== "string") node[k] = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

export const $ = (id) => document.getElementById(id);

/** Keep ``el`` (a menu, a bubble) inside the screen's width: once laid out, moved sideways by
 * as much as it would stick out (the CSS ``translate``, on top of its own transform). */
export function keepInside(el, margin = 6) {
  requestAnimationFrame(() => {
    el.style.translate = "";
    const r = el.getBoundingClientRect();
    const width = document.documentElement.clientWidth;
    const dx = r.left < margin ? margin - r.left : r.right > width - margin ? Math.max(margin - r.left, width - margin - r.right) : 0;
    if (dx) el.style.translate = `${Math.round(dx)}px 0`;
  });
}

/** A region's elements, looked up once by their ids: elements("play", "hint-reason") is
 * { play, hintReason }. */
export function elements(...ids) {
  return Object.fromEntries(ids.map((id) => [id.replace(/-(\w)/g, (_, c) => c.toUpperCase()), $(id)]));
}

/** Make a button unusable for a reason shown on hover and read by screen readers (in the
 * element named by the button's id and "-why"). */
export function setEnabled(btn, enabled, reason) {
  btn.setAttribute("aria-disabled", enabled ? "false" : "true");
  btn.title = enabled ? "" : reason;
  const why = $(`${btn.id}-why`);
  if (why) why.textContent = enabled ? "" : reason;
}

/** Shown and not made unusable by setEnabled. */
export const usable = (btn) => !btn.hidden && btn.getAttribute("aria-disabled") !== "true";

/** Run ``fn`` on a click on ``btn`` while it is usable. */
export function onUsableClick(btn, fn) {
  btn.addEventListener("click", () => { if (usable(btn)) fn(); });
}

/** Re-render ``fn`` without losing the keyboard focus: the focused element's data-key is found again. */
export function keepFocus(root, fn) {
  const active = document.activeElement;
  const key = active && root.contains(active) ? active.dataset.key : undefined;
  fn();
  if (key !== undefined) {
    const again = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again && again !== document.activeElement) again.focus({ preventScroll: true });
  }
}

