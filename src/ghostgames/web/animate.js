// Motion and pace at the table. Pieces and cards slide from where they were to where they are now
// (FLIP: measure First, redraw to the Last place, Invert with a transform, Play it back to none, with
// the Web Animations API), and updates from the server are played out one after the other at a pace a
// person can follow, each step of a move named in a caption. Under `prefers-reduced-motion: reduce`
// nothing moves; the pace and the captions stay, as they carry no motion.

const SLIDE_MS = 380;
/** How long each step of someone's move stays on screen before the next update is drawn. */
export const STEP_MS = 650;
/**
 * With this many jobs waiting (a table update and its log lines are two) the pacer stops pausing and
 * catches up: a long burst (a tab that slept) is not replayed at walking pace.
 */
const CATCH_UP = 40;

export function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

/**
 * Where each marked element is now, by key: `data-anim` names an element that moves (a card, a ghost),
 * `data-anim-origin` a place things come from or go to (a seat, a square, the hand).
 */
export function snapshot(root) {
  const rects = new Map();
  for (const el of root.querySelectorAll("[data-anim], [data-anim-origin]")) {
    for (const key of [el.dataset.anim, el.dataset.animOrigin]) {
      if (key && !rects.has(key)) rects.set(key, el.getBoundingClientRect());
    }
  }
  return rects;
}

/**
 * After a redraw: every `data-anim` element that stood elsewhere in `before` (or whose `data-anim-from`
 * names a place in `before`) slides from there to its new place. Returns the animations started.
 */
export function flip(root, before) {
  if (reducedMotion() || !before.size) return [];
  const started = [];
  for (const el of root.querySelectorAll("[data-anim], [data-anim-from]")) {
    const old = (el.dataset.anim && before.get(el.dataset.anim)) || (el.dataset.animFrom && before.get(el.dataset.animFrom));
    if (!old || typeof el.animate !== "function") continue;
    const now = el.getBoundingClientRect();
    if (!now.width && !now.height) continue;
    // Centre to centre, so a card that comes from a whole seat panel starts from its middle.
    const dx = old.left + old.width / 2 - (now.left + now.width / 2);
    const dy = old.top + old.height / 2 - (now.top + now.height / 2);
    if (Math.abs(dx) + Math.abs(dy) < 2) continue;
    const fromSmall = el.dataset.animFrom && !before.has(el.dataset.anim) ? " scale(0.6)" : "";
    started.push(el.animate(
      [{ transform: `translate(${dx}px, ${dy}px)${fromSmall}`, zIndex: 5 }, { transform: "none", zIndex: 5 }],
      { duration: SLIDE_MS, easing: "cubic-bezier(.2,.7,.3,1)" }));
  }
  return started;
}

/**
 * Redraw `root` with `redraw()` and let what moved slide there. The renderers call this instead of
 * redrawing bare; the focus and press guarantees of dom.js stay with `redraw`.
 */
export function redrawAnimated(root, redraw) {
  const before = snapshot(root);
  redraw();
  return flip(root, before);
}

/**
 * A queue that plays jobs one after the other. A job runs, returns how many milliseconds it wants on
 * screen, and the next job waits that long. Nothing is dropped: every update is drawn in its turn, and
 * a long queue is drawn without pauses until it is short again.
 */
export function createPacer() {
  const queue = [];
  let readyAt = 0;
  let timer = null;

  function pump() {
    timer = null;
    while (queue.length) {
      const wait = readyAt - performance.now();
      if (wait > 0 && queue.length < CATCH_UP) {
        timer = setTimeout(pump, wait);
        return;
      }
      const job = queue.shift();
      const hold = Number(job()) || 0;
      readyAt = performance.now() + (queue.length >= CATCH_UP ? 0 : hold);
    }
  }

  return {
    /** Queue a job (it runs at once when nothing is waiting). */
    push(job) {
      queue.push(job);
      if (!timer) pump();
    },
    /** Run everything waiting now, without pauses (a reload, a fresh table after an error). */
    flush() {
      clearTimeout(timer);
      timer = null;
      readyAt = 0;
      while (queue.length) queue.shift()();
    },
    get waiting() {
      return queue.length;
    },
  };
}
