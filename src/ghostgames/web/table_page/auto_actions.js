// What the lobby's link asked for (?join=1, ?bots=N&level=L, ?start=1 for "Play now"): done once, as the
// commands a person would type, as soon as the table and the player's name are known.

import { BOT_LEVELS } from "../chat.js";

export function createAutoActions(state, connection, { command }) {
  const params = new URLSearchParams(location.search);
  let wantJoin = params.get("join") === "1";
  let wantBots = Number(params.get("bots") || 0);
  const botLevel = BOT_LEVELS.includes(params.get("level")) ? params.get("level") : null;
  let wantStart = params.get("start") === "1"; // start once the bots sit

  return function run() {
    const info = state.table();
    if (!info || !connection.user) return;
    const seated = state.seated();
    if (wantJoin && !seated && info.status === "open") {
      wantJoin = false;
      command("/join");
      return;
    }
    if (wantBots > 0 && seated && info.status === "open") {
      const empty = info.seats.filter((seat) => seat.kind === "empty").length;
      const count = Math.min(wantBots, empty);
      wantBots = 0;
      history.replaceState(null, "", location.pathname);
      (async () => {
        for (let i = 0; i < count; i++) await command(botLevel ? `/bot add ${botLevel}` : "/bot add", { withVersion: false });
        if (wantStart) {
          wantStart = false;
          await command("/start", { withVersion: false });
        }
      })();
    }
  };
}
