// The step of the last move being played out ("Bot 2 gambles: 7."), one at a time: each step of a move
// gets its moment on screen (a bot's Ghooost! chain is several moves, each its own update, so it plays
// out one by one; my own card is seen in the trick before the bots answer it).

import { stepTime } from "../animate.js";
import { h } from "../dom.js";

const LINGER_MS = 2500; // the last step stays this long after its turn

export function createStepCaption(log) {
  // It keeps its one line when idle, so a caption coming or going never shifts what is under the pointer.
  const element = h("div", { class: "step-caption idle", "aria-live": "polite" });
  let timers = [];

  /** Show the steps of the action lines just logged; returns how long the next update must wait (ms). */
  function play(lines, pace) {
    const steps = [];
    for (const line of lines) {
      if (line.kind === "action") steps.push(...log.actionSteps(line));
    }
    if (!steps.length) return 0;
    timers.forEach(clearTimeout);
    timers = [];
    const show = (index) => {
      element.classList.remove("idle");
      element.dataset.step = String(index + 1);
      element.textContent = steps[index];
    };
    const step = stepTime(pace);
    show(0);
    steps.slice(1).forEach((_, i) => timers.push(setTimeout(() => show(i + 1), step * (i + 1))));
    timers.push(setTimeout(() => element.classList.add("idle"), step * steps.length + LINGER_MS));
    return step * steps.length;
  }

  return { element, play };
}
