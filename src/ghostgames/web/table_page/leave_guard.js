// Leaving a running game asks first (the Lobby link, any link away; closing or reloading the tab gets the
// browser's own question): a bot plays the seat to the end, and a rated game counts as a loss.

import { clear, h } from "../dom.js";
import { t } from "../i18n.js";

export function createLeaveGuard(state) {
  const element = h("div", { class: "leave-confirm", role: "alertdialog", "aria-modal": "true",
    "aria-labelledby": "leave-question", "aria-describedby": "leave-why", hidden: true });
  let leaving = false;

  /** The question in the page; `from` (the link followed) gets the focus back when the player stays. */
  function ask(href, from) {
    const stay = () => {
      element.hidden = true;
      from?.focus?.();
    };
    clear(element).append(
      h("p", { id: "leave-question", class: "confirm-question" }, t("table.leave_confirm")),
      h("p", { id: "leave-why" }, t(state.table()?.rated ? "table.leave_rated" : "table.leave_unrated")),
      h("div", { class: "confirm-buttons" },
        h("a", { class: "button danger do-leave-page", href, onclick: () => (leaving = true) }, t("table.leave_yes")),
        h("button", { type: "button", class: "leave-cancel primary", onclick: stay }, t("table.leave_no"))));
    element.onkeydown = (event) => {
      if (event.key === "Escape") stay();
    };
    element.hidden = false;
    element.querySelector(".leave-cancel").focus();
  }

  document.addEventListener("click", (event) => {
    if (!state.playingNow() || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const link = event.target.closest?.("a[href]");
    if (!link || link.target === "_blank" || link.closest(".leave-confirm")) return;
    const url = new URL(link.href, location.href);
    if (url.origin === location.origin && url.pathname === location.pathname) return; // this very table
    event.preventDefault();
    ask(link.href, link);
  }, true);
  window.addEventListener("beforeunload", (event) => {
    if (!state.playingNow() || leaving) return;
    event.preventDefault();
    event.returnValue = ""; // the browser asks in its own words
  });

  return { element };
}
