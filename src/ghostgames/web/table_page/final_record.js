// The table's last game from its record (GET /api/tables/{id}/final): asked once a rated game is over
// (for its rating changes) and when the table closes (for the replay link), and what an address shows
// after its table has gone.

import { api } from "../net.js";

/** Which game a result is: its reason and ranks (the record's copy of the outcome may order its keys
 * otherwise). */
const gameKey = (outcome) => (outcome ? `${outcome.reason}|${outcome.results.map((r) => r.rank).join(",")}` : "");

export function createFinalRecord(state) {
  let asked = null; // the result it was asked for (one request per finished game)

  function fetchFinal() {
    return api(`/tables/${encodeURIComponent(state.tableId)}/final`).then((found) => {
      found.key = gameKey(found.table?.result?.outcome);
      return found;
    });
  }

  /** Ask for the record when the game shown needs it; `then(found)` once it is in `state.final`. */
  function askIfWanted(then) {
    const info = state.table();
    if (!info || state.closed()) return;
    const wanted = (info.status === "finished" && info.rated) || info.status === "closed";
    const key = gameKey(info.result?.outcome);
    if (!wanted || asked === key) return;
    asked = key;
    fetchFinal().then((found) => {
      state.final = found;
      then();
    }, () => {});
  }

  /** The rating changes of the game shown, by seat ("1000 → 927"), when it was rated. */
  function ratingChanges(info) {
    const final = state.final;
    if (!final?.ratings || !info?.result || final.key !== gameKey(info.result.outcome)) return {};
    return final.ratings;
  }

  return { fetchFinal, askIfWanted, ratingChanges };
}
