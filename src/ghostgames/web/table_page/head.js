// The top of the table page: which game and table this is, its state, the invitation link, help, the
// replay once it is over, and the button that opens the chat and log drawer on a phone.

import { clear, h } from "../dom.js";
import { language, t } from "../i18n.js";
import { copyLink } from "../lobby.js";

export function createHead(state, drawerButton) {
  const element = h("section", { class: "table-head" });

  function draw() {
    clear(element);
    const info = state.table();
    const game = info?.game;
    const closed = state.closed();
    const link = `${location.origin}/table/${encodeURIComponent(state.tableId)}`;
    if (state.noTable) {
      element.append(h("h1", {}, t("table.none_title")),
        h("p", { class: "no-table" }, t("error.no_such_table", { table: state.tableId }), " ",
          h("a", { class: "button primary to-lobby", href: "/" }, t("table.to_lobby"))));
      return;
    }
    const final = state.final;
    const replay = final?.record ? `/replay/${final.record}` : null;
    const over = replay && (closed || info?.status === "closed");
    element.append(...[
      h("h1", {}, game ? t(`game.${game}`) : t("table.loading")),
      h("span", { class: "table-id" }, t("table.id", { id: state.tableId })),
      info ? h("span", { class: `chip status-${info.status}` }, t(`status.table.${info.status}`)) : null,
      info && info.round > 1 ? h("span", { class: "chip" }, t("table.game_number", { n: info.round })) : null,
      info ? h("span", { class: `chip rated rated-${info.rated ? "on" : "off"}` }, t(info.rated ? "table.rated" : "table.unrated")) : null,
      closed ? null : h("button", { class: "invite", onclick: (event) => copyLink(link, event.currentTarget), title: link }, t("lobby.invite")),
      over ? h("a", { class: "button replay-link", href: replay }, t("table.replay")) : null,
      over && Number.isInteger(final.seat)
        ? h("a", { class: "button replay-mine", href: `${replay}?seat=${final.seat}` }, t("profile.my_seat")) : null,
      // on a phone the help link is a "?" (layout.css); its name stays the words
      game ? h("a", { class: "help-link button", href: `/help/${language()}/${game}.html`, target: "_blank",
        "aria-label": t("table.help"), title: t("table.help") },
      h("span", { class: "help-words" }, t("table.help")), h("span", { class: "help-mark", "aria-hidden": "true" }, "?")) : null,
      game ? h("a", { class: "learn-link button", href: `/learn/${game}`, target: "_blank" }, t("tutorial.learn")) : null,
      closed ? null : h("span", { class: "spectators muted" }, info ? t("table.spectators", { n: info.spectators ?? 0 }) : ""),
      closed ? h("p", { class: "closed-note" }, t("table.closed_note")) : null,
      drawerButton,
    ].filter(Boolean));
    drawerButton.textContent = t("table.drawer");
  }

  return { element, draw };
}
