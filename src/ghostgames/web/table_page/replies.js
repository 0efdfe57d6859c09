// The server's answers to /help, /who and /options, drawn as lists in the chat in the reader's language
// (the server's English text is the answer for anything else).

import { TABLE_COMMANDS } from "../chat.js";
import { h } from "../dom.js";
import { has, language, t } from "../i18n.js";
import { SEAT_OPTIONS, choiceLabel, clockLabel, optionLabel } from "../lobby.js";
import { agreeing } from "./options.js";

export function createReplies(state) {
  function help(msg) {
    const topic = msg.args?.topic;
    const game = state.table()?.game;
    const commands = topic ? [topic] : [...TABLE_COMMANDS, ...(state.renderer?.commands || [])];
    return h("div", { class: "help-reply" },
      h("p", {}, t("reply.help")),
      h("ul", {}, commands.map((name) => h("li", {}, h("code", {}, `/${name}`), " ", t(`cmd.${name}`)))),
      game ? h("a", { href: `/help/${language()}/${game}.html`, target: "_blank" }, t("reply.help_link", { game: t(`game.${game}`) })) : null,
      game ? h("p", {}, h("a", { class: "learn-link", href: `/learn/${game}`, target: "_blank" }, t("tutorial.title", { game: t(`game.${game}`) }))) : null);
  }

  function who(msg) {
    const info = state.table();
    const lines = (info?.seats || []).map((seat) =>
      `${seat.seat + 1}: ${seat.kind === "empty" ? t("seat.empty") : state.seatName(seat.seat)}${seat.kind === "human" ? ` (${t(seat.connected ? "seat.here" : "seat.away")})` : ""}`);
    const spectators = msg.args?.spectators || [];
    return h("div", { class: "who-reply" }, h("p", {}, t("reply.who")), h("ul", {}, lines.map((line) => h("li", {}, line))),
      h("p", {}, t("reply.spectators", { names: spectators.length ? spectators.join(", ") : "–" })));
  }

  function options(msg) {
    const info = state.table();
    const rows = [];
    for (const [name, value] of Object.entries(msg.args?.settings || {})) {
      const label = has(`option.${info?.game}.${name}`) ? optionLabel(info.game, name) : name === "clock" ? t("lobby.clock") : name;
      const shown = name === "clock" ? clockLabel(String(value ?? "none"))
        : SEAT_OPTIONS.includes(name) ? (value === null || value === undefined ? t("choice.random") : String(value + 1))
        : choiceLabel(value);
      rows.push(`${label}: ${shown}`);
    }
    for (const [name, voters] of Object.entries(msg.args?.votes || {})) {
      rows.push(`${optionLabel(info?.game, name)}: ${t("table.votes", { n: agreeing(info, voters), total: info?.seats.length ?? 2 })}`);
    }
    return h("div", { class: "options-reply" }, h("p", {}, t("reply.options")), h("ul", {}, rows.map((row) => h("li", {}, row))));
  }

  /** A reply's body for the chat: a list for the known ones, else the server's text. */
  return (msg) => (msg.code === "help" ? help(msg) : msg.code === "who" ? who(msg) : msg.code === "options" ? options(msg) : msg.text);
}
