// The table as this page knows it: the server's last `table` message (or, once the table has closed, its
// last game from the record), the game's browser module once loaded, and questions every panel asks
// (my seat, may I still play, a seat's name). Panels read it; only the page's message handlers change it.

import { t } from "../i18n.js";

export function createTableState(tableId) {
  const state = {
    tableId,
    message: null, // the last `table` message: {table, seat, view, history?, closed?}
    clockBase: 0, // performance.now() when that message arrived: clocks and claims count down from it
    // The table's last game from its record (GET /api/tables/{id}/final): what the address shows once the
    // table has closed, and the rating changes of a rated game at its end.
    final: null,
    noTable: false, // no table and no finished game here: say so and offer the lobby
    game: null, // the game's module (web/games/<game>.js), once loaded
    renderer: null, // what that module drew for this table
    gameSpecs: null, // GET /api/games by name: the options each game takes
    logLines: [], // the table's log lines, oldest first

    table: () => state.message?.table,
    view: () => state.message?.view,
    /** The table closed: its address shows the last game from the record, nothing to do there. */
    closed: () => Boolean(state.message?.closed),
    mySeat: () => (state.message ? state.message.seat : null),
    seated: () => state.mySeat() !== null && state.mySeat() !== undefined,
    /** I left or resigned this running game: a bot plays my seat to the end, I only watch it. */
    gaveUp: () => ["left", "resigned"].includes(state.table()?.seats?.[state.mySeat()]?.takeover),
    /** I am in the middle of a game: leaving asks first (leave_guard.js). */
    playingNow: () => !state.closed() && state.table()?.status === "started" && state.seated() && !state.gaveUp(),

    seatName(seat) {
      if (seat === "ghost") return t("thelast.ghost");
      const info = state.table()?.seats?.[seat];
      if (!info) return t("seat.number", { seat: Number(seat) + 1 });
      if (info.kind === "bot") return t("seat.bot", { seat: Number(seat) + 1, level: t(`bot.${info.bot}`) });
      if (info.kind === "empty") return t("seat.number", { seat: Number(seat) + 1 });
      return info.name;
    },
    /** A name as the server wrote it ("easy bot" for bots) shown in the reader's language. */
    displayName: (label) => state.displayNames([label])[0],
    /** Several such names: equal bot labels ("easy bot" twice) go to different bot seats, in seat order. */
    displayNames(labels) {
      const used = new Set();
      return labels.map((label) => {
        const bot = state.table()?.seats?.find((seat) => seat.kind === "bot" && seat.name === label && !used.has(seat.seat));
        if (!bot) return label;
        used.add(bot.seat);
        return state.seatName(bot.seat);
      });
    },

    /**
     * Take a `table` message; false when it is not news: another table's, after the table closed, or an
     * older version (a fresh table that came with an error may overtake updates still in the pacer).
     */
    accept(msg) {
      if (msg.table?.id !== tableId || state.closed()) return false;
      if (state.message && msg.table.version < state.message.table.version && !msg.history) return false;
      state.message = msg;
      state.clockBase = performance.now();
      // For tests and tools: what the page last drew.
      document.body.dataset.tableVersion = String(msg.table.version);
      document.body.dataset.tableStatus = msg.table.status;
      return true;
    },
    /** The table is gone: show its last game from the record, read-only. */
    acceptFinal(found) {
      state.final = found;
      state.message = { type: "table", table: found.table, seat: found.seat, view: found.view, closed: true };
      document.body.dataset.tableStatus = "closed";
    },
  };
  return state;
}
