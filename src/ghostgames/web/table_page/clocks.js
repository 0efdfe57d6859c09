// The seats' clocks: counted down here between the server's messages (which say what was left when they
// were sent), the last seconds shown big with words, and the moment an idle player may be claimed against.

import { h } from "../dom.js";
import { t } from "../i18n.js";

// The last seconds of a clock are shown big, in a warning colour, with an icon and words.
const CLOCK_WARNING_SECONDS = 10;
const TICK_MS = 500;

function formatSeconds(value) {
  const seconds = Math.max(0, Math.ceil(value));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

const secondsSince = (base) => (performance.now() - base) / 1000;

export function createClocks(state) {
  /** A seat's clock: its text ("0:28"), and whether it runs now with little time left. */
  function clockOf(seat) {
    const clock = state.table()?.clock;
    if (!clock || clock.mode === "none") return { text: "", low: false };
    const left = clock.deadline_in?.[seat];
    if (left !== null && left !== undefined) {
      const remaining = left - secondsSince(state.clockBase);
      return { text: formatSeconds(remaining), low: remaining <= CLOCK_WARNING_SECONDS };
    }
    const bank = clock.bank?.[seat];
    if (bank !== null && bank !== undefined) return { text: formatSeconds(bank), low: false };
    return { text: clock.mode === "move" ? formatSeconds(clock.seconds) : "", low: false };
  }

  /** A seat's clock, and the words that say its last seconds run (not colour alone). */
  function clockBox(seat, turn) {
    const clock = clockOf(seat);
    return h("span", { class: "clock-box" },
      h("span", { class: `clock ${clock.low && turn ? "low" : ""}`, dataset: { clockSeat: seat } }, clock.text),
      h("span", { class: "clock-warning", hidden: !(clock.low && turn) }, t("table.clock_low")));
  }

  function tick() {
    const toAct = new Set(state.table()?.to_act || []);
    const running = state.table()?.status === "started";
    for (const el of document.querySelectorAll("[data-clock-seat]")) {
      const seat = Number(el.dataset.clockSeat);
      const clock = clockOf(seat);
      const low = clock.low && running && toAct.has(seat);
      el.textContent = clock.text;
      el.classList.toggle("low", low);
      const warning = el.parentElement?.querySelector(".clock-warning");
      if (warning) warning.hidden = !low;
    }
  }
  setInterval(tick, TICK_MS);

  /** At a table without a clock: the others may claim against a person to move who stayed idle past the
   * server's threshold (the summary's claim_in counts down from the last table message). */
  function claimable() {
    const info = state.table();
    const me = state.mySeat();
    const claimIn = info?.clock?.claim_in;
    if (info?.status !== "started" || !state.seated() || !claimIn || state.gaveUp()) return false;
    if (info.seats[me]?.takeover || claimIn[me] !== null) return false; // my own turn: move first
    const elapsed = secondsSince(state.clockBase);
    return claimIn.some((left, seat) => seat !== me && left !== null && left - elapsed <= 0);
  }

  return { clockBox, claimable };
}
