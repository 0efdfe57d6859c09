// The table page's frame (issue 32, docs/web.md "The table fits the screen"): whose turn it is and the
// table's actions in one bar over the game; the chat and the log in a side column on a wide screen and in
// a drawer on a phone (the head's "Chat and log" button opens it). The page's classes name the game, its
// state and the number of players, so the stylesheet lays each game out for its player count.

import { h } from "../dom.js";
import { t } from "../i18n.js";

const FIT_LIMIT = 128; // px: at most this much is taken off Geister's board to fit the screen

export function createLayout(state, { side }) {
  const page = h("div", { class: "table-page" });
  const isOpen = () => page.classList.contains("drawer-open");
  const drawerButton = h("button", { class: "drawer-toggle", "aria-controls": "table-side", "aria-expanded": "false",
    onclick: () => openDrawer(!isOpen()) }, t("table.drawer"));
  function openDrawer(open) {
    page.classList.toggle("drawer-open", open);
    drawerButton.setAttribute("aria-expanded", String(open));
  }
  const sideColumn = h("aside", { class: "side-column", id: "table-side", onkeydown: (event) => {
    // Escape in the chat's input closes its completions (chat.js); elsewhere in the drawer it closes it.
    if (event.key === "Escape" && isOpen() && !event.target.matches?.(".chat-input")) {
      openDrawer(false);
      drawerButton.focus();
    }
  } }, ...side);

  /** Put the parts in their places: `top` above the body, `bar` over the game, `main` down the column. */
  function assemble({ top, bar, main }) {
    page.append(...top,
      h("div", { class: "table-body" },
        h("div", { class: "main-column" }, h("div", { class: "table-bar" }, ...bar), ...main),
        sideColumn));
  }

  // Geister's board is sized from what the rest of the page leaves (layout.css, --around). Words longer
  // than the English ones (a second line in the head or the turn bar) would still push the bottom plate
  // off a phone's screen, so what overflows the screen is taken off the board's height, up to a limit.
  function fitBoard() {
    if (!page.classList.contains("game-geister") || !page.isConnected) return;
    page.style.setProperty("--fit-extra", "0px");
    const over = document.documentElement.scrollHeight - window.innerHeight;
    if (over > 0) page.style.setProperty("--fit-extra", `${Math.min(Math.ceil(over), FIT_LIMIT)}px`);
  }
  new ResizeObserver(fitBoard).observe(page);

  function draw() {
    const info = state.table();
    const extra = info && state.game?.layoutClass ? state.game.layoutClass(state.view(), state.mySeat()) : "";
    page.className = ["table-page", info ? `game-${info.game}` : "", info ? `status-${info.status}` : "",
      info ? `players-${info.seats.length}` : "", drawerButton.getAttribute("aria-expanded") === "true" ? "drawer-open" : "",
      extra].filter(Boolean).join(" ");
  }

  return { element: page, drawerButton, assemble, draw };
}
