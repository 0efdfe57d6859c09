// Tiny DOM helpers: build elements (HTML or SVG) from a tag, attributes and children.

const SVG_NS = "http://www.w3.org/2000/svg";

function build(el, attrs, children) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") el.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(el.dataset, value);
    else if (name === "text") el.textContent = value;
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** An HTML element: h("button", {class: "x", onclick: f}, "text"). */
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element, same shape as h(). */
export function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

// The data attributes that name a control across redraws (a square, a tray colour, a card, a zone).
const IDENTITY_KEYS = ["square", "colour", "card", "seat", "zone"];

function identitySelector(el) {
  let selector = el.tagName.toLowerCase();
  if (el.classList.length) selector += `.${CSS.escape(el.classList[0])}`;
  for (const key of IDENTITY_KEYS) {
    if (el.dataset[key] !== undefined) selector += `[data-${key}="${CSS.escape(el.dataset[key])}"]`;
  }
  return selector;
}

/** Empty root, let paint() rebuild it, and give focus back to the same control. The renderers redraw
 * everything on each server update; without this a keyboard player would lose their place whenever
 * the other side moved, and a key press meant for a square would land on the page instead. */
export function redrawKeepingFocus(root, paint) {
  const active = document.activeElement;
  let selector = null;
  let index = 0;
  if (active && active !== root && root.contains(active)) {
    selector = identitySelector(active);
    index = Math.max(0, [...root.querySelectorAll(selector)].indexOf(active));
    // Let go of the focus before emptying the root: Chrome lays the page out when the focused element is
    // removed, and with the root empty for that moment the page is shorter, so a page scrolled down was
    // pulled back to the top on every click (Geister's setup tray, issue 32 point 3).
    active.blur();
  }
  clear(root);
  paint();
  if (!selector) return;
  const matches = root.querySelectorAll(selector);
  const again = matches[Math.min(index, matches.length - 1)];
  if (again && !again.disabled) again.focus({ preventScroll: true });
}

// A press in progress (mouse button, finger or pen down). A click is a press and a release on the same
// element; if a server update rebuilt the page in between, the click would go nowhere and the player's
// "Ready" or move would be silently lost. So updates that arrive during a press wait for its release.
let pressing = false;
let holdTimer = null;
const afterRelease = [];
// A release the page never hears of (the button let go outside the window) must not freeze the table.
const LONGEST_HOLD_MS = 15000;

function press() {
  pressing = true;
  clearTimeout(holdTimer);
  holdTimer = setTimeout(release, LONGEST_HOLD_MS);
}

function release() {
  clearTimeout(holdTimer);
  pressing = false;
  // The click event follows the release in the same turn of the event loop; run the waiting updates
  // after it, so the click lands on the element the player pressed.
  setTimeout(() => {
    if (pressing) return;
    for (const job of afterRelease.splice(0)) job();
  }, 0);
}

window.addEventListener("pointerdown", press, { capture: true });
window.addEventListener("pointerup", release, { capture: true });
window.addEventListener("pointercancel", release, { capture: true });
window.addEventListener("blur", release);

/** Run `job` now, or, while a press is in progress, right after its click (jobs keep their order). */
export function whenNotPressed(job) {
  if (pressing) afterRelease.push(job);
  else job();
}
