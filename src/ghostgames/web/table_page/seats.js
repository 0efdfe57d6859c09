// The seats: who sits where, whose turn it is, away or played by a bot, what each holds and their clock.
// Some games draw a panel per seat themselves (their module's SEAT_PANELS): those panels are the seat
// plates, and the table adds what only it knows (the clock, away, a bot playing). Other games draw none,
// so the table's own plates stand around their board.

import { clear, h } from "../dom.js";
import { t } from "../i18n.js";

export function createSeats(state, clocks) {
  // The others above the game, mine below it (a spectator sees them all above).
  const others = h("section", { class: "seats seats-others", "aria-label": t("table.seats"), "data-i18n-aria-label": "table.seats" });
  const mine = h("section", { class: "seats seats-mine" });

  const gameDrawsSeats = () => Boolean(state.game?.SEAT_PANELS) && state.table()?.status === "started" && Boolean(state.view());
  const isMe = (seat) => seat === state.mySeat();

  /** Away, or a bot playing for whoever left: the words beside a seat's name. */
  function seatState(entry) {
    const words = [];
    if (entry.kind === "human" && !entry.connected) words.push(t("seat.away"));
    if (entry.takeover) words.push(t(`takeover.${entry.takeover}`));
    return words;
  }

  /** What a seat holds, in the game's words (ghosts on the board, cards in hand...). */
  const seatCounts = (seat) => (state.view() && state.game?.seatCounts ? state.game.seatCounts(state.view(), seat, t) : []);

  function seatPlate(seat, info, toAct) {
    const turn = toAct.has(seat.seat) && info.status === "started";
    const words = seatState(seat);
    const counts = seat.kind === "empty" ? [] : seatCounts(seat.seat);
    return h("li", { class: `seat plate kind-${seat.kind} ${turn ? "to-act" : ""} ${isMe(seat.seat) ? "me" : ""}`,
        dataset: { seat: seat.seat } },
      h("span", { class: "seat-no", "aria-hidden": "true" }, String(seat.seat + 1)),
      h("span", { class: "seat-name" }, seat.kind === "empty" ? t("seat.empty") : state.seatName(seat.seat)),
      isMe(seat.seat) && !state.gaveUp() ? h("span", { class: "chip you" }, t("seat.you")) : null,
      turn ? h("span", { class: "chip turn", title: t("seat.to_act") }, "▶ ", t("seat.to_act")) : null,
      words.length ? h("span", { class: "seat-state muted" }, words.join(", ")) : null,
      counts.length
        ? h("span", { class: "seat-counts" }, counts.map(([kind, text]) => h("span", { class: `count count-${kind}` }, text)))
        : null,
      clocks.clockBox(seat.seat, turn),
    );
  }

  function draw() {
    clear(others);
    clear(mine);
    const info = state.table();
    // Before the game's module is here nothing is drawn: it decides whether the table's plates show at all.
    if (!info || !state.game || gameDrawsSeats()) return;
    const toAct = new Set(info.to_act || []);
    const me = state.mySeat();
    // The others in seat order after mine, so the one who plays after me sits first.
    const count = info.seats.length;
    const start = me === null || me === undefined ? 0 : me + 1;
    const around = Array.from({ length: count }, (_, i) => info.seats[(start + i) % count]).filter((seat) => seat.seat !== me);
    others.append(h("ol", { class: "seat-list" }, around.map((seat) => seatPlate(seat, info, toAct))));
    const own = info.seats.find((seat) => seat.seat === me);
    if (own) mine.append(h("ol", { class: "seat-list" }, seatPlate(own, info, toAct)));
  }

  /** The table's additions on the game's own seat panels (`fresh`: the game drew anew, add them again). */
  function decoratePanels(fresh = false) {
    const info = state.table();
    const renderer = state.renderer;
    if (!info || !renderer) return;
    if (fresh || !gameDrawsSeats()) for (const old of renderer.element.querySelectorAll(".table-extra")) old.remove();
    if (!gameDrawsSeats()) return; // before and after the game the table's own plates show the seats
    const toAct = new Set(info.to_act || []);
    for (const panel of renderer.element.querySelectorAll(state.game.SEAT_PANELS)) {
      const seat = Number(panel.dataset.seat ?? panel.dataset.who);
      const entry = info.seats[seat];
      if (!Number.isInteger(seat) || !entry) continue; // The Last's ghost has no seat
      if (panel.querySelector(":scope > .table-extra")) continue;
      const words = seatState(entry);
      panel.classList.add("seat", "plate", `kind-${entry.kind}`);
      panel.classList.toggle("me", isMe(seat));
      panel.dataset.seat = String(seat);
      panel.append(h("div", { class: "table-extra" },
        isMe(seat) && !state.gaveUp() ? h("span", { class: "chip you" }, t("seat.you")) : null,
        words.length ? h("span", { class: "seat-state muted" }, words.join(", ")) : null,
        clocks.clockBox(seat, toAct.has(seat) && info.status === "started")));
    }
  }

  // The game redraws its panels at will (animated or not): an observer puts the additions back each time.
  let observer = null;
  function watchPanels() {
    if (observer || !state.renderer) return;
    observer = new MutationObserver(() => decoratePanels());
    observer.observe(state.renderer.element, { childList: true, subtree: true });
  }

  return { others, mine, draw, decoratePanels, watchPanels };
}
