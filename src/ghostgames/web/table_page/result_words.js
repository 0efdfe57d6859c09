// A finished game in words, for the turn banner and the end panel: the players' names as the result
// wrote them, who won, why it ended and each seat's score.

import { t } from "../i18n.js";
import { reasonWords } from "../words.js";

export function createResultWords(state, ctx) {
  /** The players' names in a result, bots named in the reader's language. */
  function names(info) {
    return info.seats.map((seat, index) => (seat.kind === "bot" ? state.seatName(index) : info.result?.names?.[index] ?? state.seatName(index)));
  }

  const winners = (info) => {
    const shown = names(info);
    return info.result.outcome.results.map((r, seat) => (r.result === "win" ? shown[seat] : null)).filter(Boolean);
  };
  const allDraw = (info) => info.result.outcome.results.every((r) => r.result === "draw");

  /** "X won", "X, Y won" or "A draw". */
  function headline(info) {
    if (allDraw(info)) return t("result.draw");
    const won = winners(info);
    return t(won.length > 1 ? "result.winners" : "result.winner", { names: won.join(", ") });
  }

  /** Why the game ended, in words (words.js, shared with the log and the replay). */
  const reason = (outcome) => reasonWords(outcome, state.game, ctx);

  /** The banner's one line: who won and why ("X won (a good ghost escaped)"). */
  function summary(info) {
    if (!info.result) return "";
    const parts = [];
    if (allDraw(info) || winners(info).length) parts.push(headline(info));
    const why = reason(info.result.outcome);
    if (why) parts.push(`(${why})`);
    return parts.join(" ");
  }

  /** A seat's score in words ("12 points", "penalty 7"); games whose score is only win or loss say nothing. */
  function score(value) {
    const shown = Number.isInteger(value) ? value : Number(value).toFixed(1);
    return state.game?.scoreText ? state.game.scoreText(shown, ctx, state.view()) : "";
  }

  /** The results best first, each with its seat. */
  const ranked = (outcome) => outcome.results.map((r, seat) => ({ ...r, seat })).sort((a, b) => a.rank - b.rank);

  return { names, headline, reason, summary, score, ranked };
}
