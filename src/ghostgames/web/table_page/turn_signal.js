// Outside the tab too: while it is my turn the title says so and the favicon wears a badge, and the
// moment it becomes my turn a short sound plays (and a notification, when the player asked for them).

import { t } from "../i18n.js";
import { notifyTurn, playTurnSound } from "../settings.js";

// The favicon with a badge: the page's ghost and a bright dot, as a data: address (no request).
const TURN_ICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40">'
  + '<path fill="#f4f1ff" stroke="#3a3358" stroke-width="2" d="M7 35 V17 a13 13 0 0 1 26 0 V35 l-4.3 -3.5 l-4.4 3.5 l-4.3 -3.5 l-4.3 3.5 l-4.4 -3.5 z"/>'
  + '<circle cx="15" cy="16" r="2.6" fill="#3a3358"/><circle cx="25" cy="16" r="2.6" fill="#3a3358"/>'
  + '<circle cx="31" cy="9" r="8.5" fill="#e8590c" stroke="#fff" stroke-width="2"/></svg>')}`;

export function createTurnSignal(state) {
  const favicon = document.querySelector("link[rel=icon]");
  const plainIcon = favicon?.getAttribute("href");
  let wasMyTurn = false;

  return function signalTurn(mine) {
    const game = state.table()?.game;
    if (mine && !wasMyTurn) {
      playTurnSound();
      notifyTurn(t("table.title_your_turn"));
    }
    wasMyTurn = mine;
    document.title = mine ? t("table.title_your_turn")
      : game ? t("table.title", { game: t(`game.${game}`) }) : t("ui.title");
    document.body.dataset.myTurn = mine ? "1" : "0";
    if (favicon) favicon.setAttribute("href", mine ? TURN_ICON : plainIcon);
  };
}
