// The table's options before a game starts: each of the game's options (a vote, a choice, a seat or a
// number), the clock and whether the game is rated. A change is sent as the `/option` command one would
// type, so the chat and the form are one way to the same thing.

import { clear, h } from "../dom.js";
import { t } from "../i18n.js";
import { CLOCKS, SEAT_OPTIONS, choiceLabel, choicesOf, clockLabel, optionHelp, optionLabel } from "../lobby.js";

/** Who is for a vote option: the people who voted yes and every bot (bots always agree). */
export function agreeing(info, voters) {
  return voters.length + (info?.seats || []).filter((seat) => seat.kind === "bot").length;
}

/** An option's value as `/option` takes it: on/off, none, or the choice itself. */
const typed = (choice) => (choice === true ? "on" : choice === false ? "off" : choice === null ? "none" : choice);

export function createOptions(state, { command }) {
  const element = h("section", { class: "pregame" });

  function voteField(info, name, seated) {
    const voters = info.votes?.[name] || [];
    const mine = seated && voters.includes(state.mySeat());
    return h("span", { class: "vote-count" },
      t("table.votes", { n: agreeing(info, voters), total: info.seats.length }), " ",
      seated
        ? h("label", { class: "vote" },
            h("input", { type: "checkbox", name: `vote-${name}`, checked: mine,
              onchange: (event) => command(`/option ${name} ${event.target.checked ? "on" : "off"}`) }),
            t("table.vote_yes"))
        : null);
  }

  function settingField(info, name, option, seated) {
    const current = info.settings?.[name] ?? option.default;
    const choices = choicesOf(option);
    if (SEAT_OPTIONS.includes(name)) {
      // a seat: shown and typed from 1 (`/option first 1` is the first seat), kept from 0
      const select = h("select", { name: `setting-${name}`, disabled: !seated,
          onchange: () => command(`/option ${name} ${select.value === "" ? "none" : Number(select.value) + 1}`) },
        h("option", { value: "", selected: current === null || current === undefined }, t("choice.random")),
        info.seats.map((seat) => h("option", { value: String(seat.seat), selected: current === seat.seat }, String(seat.seat + 1))));
      return select;
    }
    if (seated && choices) {
      const select = h("select", { name: `setting-${name}`, onchange: () => {
          command(`/option ${name} ${typed(choices[Number(select.value)])}`);
        } },
        choices.map((choice, index) =>
          h("option", { value: index, selected: JSON.stringify(choice) === JSON.stringify(current) }, choiceLabel(choice))));
      return select;
    }
    if (seated) {
      const input = h("input", { name: `setting-${name}`, inputmode: "numeric", size: 6, value: current ?? "",
        placeholder: t("choice.none"),
        onchange: () => command(`/option ${name} ${input.value.trim() === "" ? "none" : input.value.trim()}`) });
      return input;
    }
    return h("span", {}, choiceLabel(current));
  }

  function draw() {
    clear(element);
    const info = state.table();
    if (!info || info.status !== "open") return;
    const spec = state.gameSpecs?.[info.game];
    element.append(h("h2", {}, t("table.options")));
    const seated = state.seated();
    const rows = h("dl", { class: "option-list" });
    for (const [name, option] of Object.entries(spec?.options || {})) {
      const value = option.vote ? voteField(info, name, seated) : settingField(info, name, option, seated);
      rows.append(h("dt", {}, optionLabel(info.game, name)), h("dd", {}, value, " ",
        h("small", { class: "help" }, optionHelp(info.game, name, option))));
    }
    const clockValue = info.clock?.mode === "move" ? String(info.clock.seconds)
      : info.clock?.mode === "bank" ? `${info.clock.seconds}+${info.clock.increment}` : "none";
    const clockSelect = h("select", { name: "setting-clock", disabled: !seated,
        onchange: () => command(`/option clock ${clockSelect.value}`) },
      [...new Set([...CLOCKS, clockValue])].map((value) => h("option", { value, selected: value === clockValue }, clockLabel(value))));
    rows.append(h("dt", {}, t("lobby.clock")), h("dd", {}, clockSelect));
    const rated = h("input", { type: "checkbox", name: "setting-rated", checked: info.rated !== false, disabled: !seated,
      onchange: () => command(`/option rated ${rated.checked ? "on" : "off"}`) });
    rows.append(h("dt", {}, t("table.rated")), h("dd", {}, rated, " ", h("small", { class: "help" }, t("table.rated_help"))));
    element.append(rows);
    element.append(h("p", { class: "hint" }, t("table.open_hint")));
  }

  return { element, draw };
}
