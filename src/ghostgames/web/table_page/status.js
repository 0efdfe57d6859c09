// The one line that says what happens now: waiting for players, whose turn it is (my turn in the game's
// own words), or, once it is over, the result with its ranking and who asks for a rematch.

import { clear, h } from "../dom.js";
import { t } from "../i18n.js";
import { createTurnSignal } from "./turn_signal.js";

export function createStatus(state, words) {
  const element = h("div", { class: "turn-banner", role: "status" });
  const signalTurn = createTurnSignal(state);

  function ranking(info) {
    const list = h("ul", { class: "ranking" });
    const names = words.names(info);
    const takeovers = info.result.takeovers;
    for (const r of words.ranked(info.result.outcome)) {
      const args = { rank: r.rank, name: names[r.seat] ?? state.seatName(r.seat), result: t(`result.word.${r.result}`) };
      const score = words.score(r.score);
      list.append(h("li", { class: `result-${r.result}` },
        score ? t("result.line", { ...args, score }) : t("result.line_plain", args),
        takeovers?.[r.seat] ? ` (${t("result.bot_finished", { reason: t(`takeover.${takeovers[r.seat]}`) })})` : ""));
    }
    return list;
  }

  function draw() {
    clear(element);
    const info = state.table();
    element.className = "turn-banner";
    signalTurn(Boolean(info && info.status === "started" && (info.to_act || []).includes(state.mySeat()) && !state.gaveUp()));
    if (!info) return;
    if (info.status === "open") {
      const empty = info.seats.filter((seat) => seat.kind === "empty").length;
      element.append(empty ? t("table.waiting_players", { n: empty }) : t("table.ready_to_start"));
    } else if (info.status === "started") {
      const toAct = info.to_act || [];
      if (toAct.includes(state.mySeat())) {
        element.classList.add("my-turn");
        element.append(t(state.game?.turnPrompt ? state.game.turnPrompt(state.view()) : "table.your_turn"));
      } else {
        element.append(t("table.waiting_for", { names: toAct.map(state.seatName).join(", ") || "…" }));
      }
    } else if (info.status === "finished" || state.closed()) {
      element.classList.add("finished");
      const result = h("div", { class: "result" }, h("strong", {}, t("result.title")), " ", words.summary(info));
      if (info.result?.outcome) result.append(ranking(info));
      element.append(result);
      const asked = info.rematch || [];
      if (asked.length) {
        element.append(h("p", { class: "rematch-asked" }, t("table.rematch_asked", { names: asked.map(state.seatName).join(", ") })));
      }
    }
  }

  return { element, draw };
}
