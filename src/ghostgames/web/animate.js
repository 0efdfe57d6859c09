// Motion and pace at the table. Pieces and cards slide from where they were to where they are now
// (FLIP: measure First, redraw to the Last place, Invert with a transform, Play it back to none, with
// the Web Animations API), and updates from the server are played out one after the other at a pace a
// person can follow, each step of a move named in a caption. Under `prefers-reduced-motion: reduce`
// nothing moves; the pace and the captions stay, as they carry no motion.

import { h } from "./dom.js";

const SLIDE_MS = 380;
/** How long each step of someone's move stays on screen before the next update is drawn. */
export const STEP_MS = 650;
/**
 * The page never falls far behind the table (a clock may be running): the longer the queue, the shorter
 * each step, and once the oldest waiting update is this old every step is one frame long.
 */
const MAX_LAG_MS = 3000;
const ONE_FRAME_MS = 40;
/** With this many jobs waiting (a table update and its log lines are two) the pacer drains at once. */
const CATCH_UP = 40;

export function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

/** Nothing slides under reduced motion, nor at the pace "instant" (every update drawn at once). */
function still() {
  return reducedMotion() || chosenPace() === "instant";
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
  if (still() || !before.size) return [];
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
 * Cards that leave the table (a cemetery taken into a hand): copies of `cards` fly from where they lay
 * to `target` and vanish. They take no clicks and are gone when the flight ends.
 */
export function flyAway(cards, target) {
  if (still() || !target) return [];
  const to = target.getBoundingClientRect();
  return cards.map(({ node, rect }, i) => {
    const copy = node.cloneNode(true);
    copy.classList.add("flying-card");
    Object.assign(copy.style, { position: "fixed", left: `${rect.left}px`, top: `${rect.top}px`,
      width: `${rect.width}px`, height: `${rect.height}px`, margin: "0", pointerEvents: "none", zIndex: "20" });
    copy.setAttribute("aria-hidden", "true");
    document.body.append(copy);
    const dx = to.left + to.width / 2 - (rect.left + rect.width / 2);
    const dy = to.top + to.height / 2 - (rect.top + rect.height / 2);
    const flight = copy.animate(
      [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(0.4)`, opacity: 0.2 }],
      { duration: SLIDE_MS + 60 * i, easing: "ease-in" });
    flight.onfinish = () => copy.remove();
    flight.oncancel = () => copy.remove();
    return flight;
  });
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
 * How much of its wish each step gets, given the jobs still waiting behind this one: all of it when
 * few wait, less as the queue grows, one frame once the oldest has waited too long, nothing in a flood.
 */
function paceFor(queue, now) {
  if (queue.length >= CATCH_UP) return 0;
  if (queue.length && now - queue[0].since > MAX_LAG_MS) return ONE_FRAME_MS / STEP_MS;
  return 1 / (1 + queue.length / 6);
}

/** The paces a person may choose in the top bar, as a share of STEP_MS; kept in this browser. */
export const PACES = { normal: 1, fast: 0.35, instant: 0 };
const PACE_KEY = "ghostgames.pace";

/** The chosen pace's name ("normal" unless this browser chose another). */
export function chosenPace() {
  const name = localStorage.getItem(PACE_KEY);
  return name && name in PACES ? name : "normal";
}

/** A select for the pace of moves, labelled through `t` (and again whenever `onRelabel` calls back). */
export function pacePicker(t, onRelabel) {
  const select = h("select", { id: "pace-picker" });
  const label = () => {
    select.setAttribute("aria-label", t("ui.pace"));
    select.title = t("ui.pace");
    for (const option of select.options) option.textContent = t(`pace.${option.value}`);
  };
  for (const name of Object.keys(PACES)) select.append(h("option", { value: name }));
  select.value = chosenPace();
  select.addEventListener("change", () => localStorage.setItem(PACE_KEY, select.value));
  label();
  onRelabel(label);
  return select;
}

/** A step's time on screen at pace `pace` (see paceFor) and the chosen pace: never below one frame, so it
 * is painted, and nothing at all under the pace "instant". */
export function stepTime(pace) {
  const wish = STEP_MS * pace * PACES[chosenPace()];
  return wish > 0 ? Math.max(ONE_FRAME_MS, wish) : 0;
}

/**
 * A queue that plays jobs one after the other. A job runs with the pace it may take (see paceFor),
 * returns how many milliseconds it wants on screen, and the next job waits that long. Nothing is
 * dropped: every update is drawn in its turn.
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
      const { job } = queue.shift();
      const hold = Number(job(paceFor(queue, performance.now()))) || 0;
      readyAt = performance.now() + hold;
    }
  }

  return {
    /** Queue a job (it runs at once when nothing is waiting). */
    push(job) {
      queue.push({ job, since: performance.now() });
      if (!timer) pump();
    },
    /** Run everything waiting now, without pauses (a reload, a fresh table after an error). */
    flush() {
      clearTimeout(timer);
      timer = null;
      readyAt = 0;
      while (queue.length) queue.shift().job(0);
    },
    get waiting() {
      return queue.length;
    },
  };
}
