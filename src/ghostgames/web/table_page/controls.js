// The table's actions in a toolbar over the game: join, bots, start and leave before the game; claim and
// resign during it; rematch after it. Every table update redraws them, keeping the focus and the bot
// level picked, so a keyboard player is not thrown back mid-choice.

import { BOT_LEVELS } from "../chat.js";
import { h, redrawKeepingFocus } from "../dom.js";
import { t } from "../i18n.js";

const CLAIM_CHECK_MS = 1000;

export function createControls(state, connection, { command, claimable }) {
  const element = h("div", { class: "controls", role: "toolbar", "aria-label": t("table.controls"),
    "data-i18n-aria-label": "table.controls" });
  let confirmingResign = false;
  let claimShown = false;

  function button(label, text, { primary = false, cls = "" } = {}) {
    // The control's own class first: a redraw finds the focused control again by its first class (dom.js).
    return h("button", { class: `${cls}${primary ? " primary" : ""}`, onclick: () => command(text) }, label);
  }

  function claimButtons() {
    const claim = (what) => command(`/claim ${what}`, { withVersion: false });
    if (state.table().seats.length > 2) {
      return [h("button", { class: "do-claim-bot", onclick: () => claim("win") }, t("table.claim_bot"))];
    }
    return [h("button", { class: "do-claim-win primary", onclick: () => claim("win") }, t("table.claim_win")),
      h("button", { class: "do-claim-draw", onclick: () => claim("draw") }, t("table.claim_draw"))];
  }

  // Resigning cannot be undone: the button asks first, in the page (no browser dialog), Escape cancels.
  function resignConfirmation() {
    const cancel = () => {
      confirmingResign = false;
      draw();
      element.querySelector(".do-resign")?.focus();
    };
    return h("div", { class: "confirm", role: "alertdialog", "aria-labelledby": "resign-question",
        onkeydown: (event) => {
          if (event.key === "Escape") cancel();
        } },
      h("span", { id: "resign-question", class: "confirm-question" }, t("table.resign_confirm")),
      h("button", { class: "do-resign-confirm danger", onclick: () => {
        confirmingResign = false;
        // Giving up does not depend on what the board showed: no version, so a move that lands meanwhile
        // (drawn or still waiting its turn at the table's pace) cannot turn it into a stale request.
        command("/resign", { withVersion: false });
      } }, t("table.resign_yes")),
      h("button", { class: "resign-cancel", onclick: cancel }, t("table.resign_no")));
  }

  function resignButton() {
    return h("button", { class: "do-resign danger", onclick: () => {
      confirmingResign = true;
      draw();
      element.querySelector(".resign-cancel")?.focus();
    } }, t("table.resign"));
  }

  /** The controls for the table's state, into the emptied toolbar (draw empties it). */
  function build() {
    if (state.table()?.status !== "started") confirmingResign = false;
    claimShown = claimable();
    const info = state.table();
    if (!info || !connection.user || state.closed()) return;
    const seated = state.seated();
    const empty = info.seats.filter((seat) => seat.kind === "empty");
    const bots = info.seats.filter((seat) => seat.kind === "bot");
    if (info.status === "open") {
      if (!seated && empty.length) element.append(button(t("table.join"), "/join", { primary: true, cls: "do-join" }));
      if (seated || info.created_by === connection.user.name) {
        if (empty.length) {
          const level = h("select", { class: "bot-level", "aria-label": t("table.bot_level") },
            BOT_LEVELS.map((name) => h("option", { value: name }, t(`bot.${name}`))));
          element.append(h("span", { class: "group" }, level,
            h("button", { class: "do-bot-add", onclick: () => command(`/bot add ${level.value}`) }, t("table.add_bot"))));
        }
        if (bots.length) element.append(button(t("table.remove_bot"), "/bot remove", { cls: "do-bot-remove" }));
      }
      if (seated) {
        element.append(button(t("table.start"), "/start", { primary: !empty.length, cls: "do-start" }));
        element.append(button(t("table.leave"), "/leave", { cls: "do-leave" }));
      }
    } else if (info.status === "started") {
      if (claimShown) element.append(h("span", { class: "group claim" }, t("table.claim_hint"), " ", ...claimButtons()));
      if (seated && !state.gaveUp()) element.append(confirmingResign ? resignConfirmation() : resignButton());
    } else if (info.status === "finished") {
      if (seated) {
        // A rematch is proposed by one and accepted by the others (bots accept at once).
        const asked = info.rematch || [];
        if (!asked.includes(state.mySeat())) {
          const label = asked.length ? t("table.rematch_accept") : t("table.rematch");
          element.append(button(label, "/rematch", { primary: true, cls: "do-rematch" }));
        }
        element.append(button(t("table.leave"), "/leave", { cls: "do-leave" }));
      }
    }
  }

  function draw() {
    const level = element.querySelector(".bot-level")?.value; // picked, not yet added
    redrawKeepingFocus(element, build);
    const picker = element.querySelector(".bot-level");
    if (picker && level) picker.value = level;
  }

  // The claim threshold passes between the server's messages: look again every second.
  setInterval(() => {
    if (claimable() !== claimShown) draw();
  }, CLAIM_CHECK_MS);

  return { element, draw };
}
