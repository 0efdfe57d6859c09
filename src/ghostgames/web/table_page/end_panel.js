// The end of the game in words, over the board: who won, why, each seat's rank and score, the rating
// changes of a rated game and what the game made public at its end. It can be closed to look at the board.
// "Analyse this game" opens the replay with its analysis (replay.js, analysis.js): from the reader's own
// seat when they played one (the server says which, from the token), else as a spectator. The panel only
// shows once the game is over, so a running game is never analysed.

import { clear, h } from "../dom.js";
import { t } from "../i18n.js";
import { shownRating } from "../profile.js";

export function createEndPanel(state, words, finalRecord) {
  const element = h("section", { class: "end-panel", "aria-labelledby": "end-panel-title", hidden: true });
  let closedAt = null; // the version whose panel was dismissed

  function rankLine(info, r, names, changes) {
    const score = words.score(r.score);
    const takeover = info.result.takeovers?.[r.seat];
    const change = changes[String(r.seat)];
    return h("li", { class: `result-${r.result}`, dataset: { seat: r.seat } },
      h("span", { class: "end-rank" }, `${r.rank}.`), " ", h("strong", {}, names[r.seat] ?? state.seatName(r.seat)), " – ",
      t(`result.word.${r.result}`), score ? ` – ${score}` : "",
      takeover ? ` (${t("result.bot_finished", { reason: t(`takeover.${takeover}`) })})` : "",
      change ? h("span", { class: "end-rating" }, " – ",
        t("end.rating_change", { before: shownRating(change.before), after: shownRating(change.after) })) : "");
  }

  /** The replay of the game just finished, asking for its analysis (the record is stored at the end). */
  function analyse(button) {
    button.disabled = true;
    finalRecord.fetchFinal().then((found) => {
      const query = new URLSearchParams();
      if (Number.isInteger(found.seat)) query.set("seat", String(found.seat));
      query.set("analyse", "1");
      location.assign(`/replay/${encodeURIComponent(found.record)}?${query}`);
    }, () => {
      button.disabled = false;
    });
  }

  function draw() {
    const info = state.table();
    const outcome = info?.status === "finished" || state.closed() ? info.result?.outcome : null;
    clear(element);
    if (!outcome || closedAt === info.version) {
      element.hidden = true;
      return;
    }
    element.hidden = false;
    const names = words.names(info);
    const reason = words.reason(outcome);
    const changes = finalRecord.ratingChanges(info);
    element.append(
      h("h2", { id: "end-panel-title" }, t("end.title")),
      h("p", { class: "end-result" }, words.headline(info)),
      reason ? h("p", { class: "end-reason" }, t("end.reason", { reason })) : null,
      h("ol", { class: "end-ranking" }, words.ranked(outcome).map((r) => rankLine(info, r, names, changes))),
      state.renderer?.endDetails?.() ?? null,
      h("div", { class: "end-buttons" },
        h("button", { type: "button", class: "end-analyse primary", onclick: (event) => analyse(event.currentTarget) }, t("analysis.start")),
        state.closed() ? null : h("button", { class: "end-close", onclick: () => {
          closedAt = info.version;
          draw();
        } }, t("end.close"))));
  }

  return { element, draw };
}
