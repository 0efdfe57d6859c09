// The table chat: plain text is chat, "/..." is a command, both sent the same way. Typing "/" lists the
// command names that fit: Tab completes the highlighted one, the arrows move, Escape closes, Enter sends.

import { clear, h } from "./dom.js";
import { t } from "./i18n.js";

export const TABLE_COMMANDS = ["join", "leave", "start", "option", "bot", "who", "help", "resign", "rematch", "claim"];
const BOT_WORDS = ["add", "remove"];
export const BOT_LEVELS = ["easy", "medium", "hard", "random"];

/**
 * The suggestions for what is typed: command names after "/", then option names after "/option ",
 * and "add/remove" and levels after "/bot ". Each is {insert, label, hint}.
 */
export function suggestions(text, { gameCommands = [], optionNames = [] } = {}) {
  if (!text.startsWith("/")) return [];
  const words = text.slice(1).split(" ");
  const fits = (candidates, prefix) => candidates.filter((c) => c.startsWith(prefix.toLowerCase()));
  if (words.length === 1) {
    const all = [...new Set([...TABLE_COMMANDS, ...gameCommands])];
    return fits(all, words[0]).map((name) => ({ insert: `/${name} `, label: `/${name}`, hint: t(`cmd.${name}`) }));
  }
  if (words.length === 2 && words[0] === "option") {
    return fits(optionNames, words[1]).map((name) => ({ insert: `/option ${name} `, label: name, hint: "" }));
  }
  if (words.length === 2 && words[0] === "bot") {
    return fits(BOT_WORDS, words[1]).map((word) => ({ insert: `/bot ${word} `, label: word, hint: t(`cmd.bot.${word}`) }));
  }
  if (words.length === 3 && words[0] === "bot" && words[1] === "add") {
    return fits(BOT_LEVELS, words[2]).map((level) => ({ insert: `/bot add ${level}`, label: level, hint: t(`bot.${level}`) }));
  }
  return [];
}

/** The chat box: messages list, input with completion; `send(text)` delivers a line to the server. */
export function chatBox({ send, context }) {
  const list = h("ol", { class: "chat-lines", "aria-live": "polite", "aria-label": t("chat.title"),
    "data-i18n-aria-label": "chat.title" });
  const input = h("input", { class: "chat-input", name: "chat", autocomplete: "off", spellcheck: "false",
    placeholder: t("chat.placeholder"), "aria-label": t("chat.placeholder"), role: "combobox",
    "data-i18n-placeholder": "chat.placeholder", "data-i18n-aria-label": "chat.placeholder",
    "aria-autocomplete": "list", "aria-expanded": "false", "aria-controls": "chat-completions" });
  const menu = h("ul", { class: "completions", id: "chat-completions", role: "listbox", hidden: true });
  let items = [];
  let active = -1;

  function refresh() {
    items = suggestions(input.value, context());
    if (items.length === 1 && items[0].insert.trim() === input.value.trim()) items = [];
    active = items.length ? 0 : -1;
    paint();
  }

  function paint() {
    clear(menu);
    menu.hidden = items.length === 0;
    input.setAttribute("aria-expanded", String(!menu.hidden));
    items.forEach((item, index) => {
      menu.append(h("li", { role: "option", class: index === active ? "active" : "", "aria-selected": String(index === active),
          onmousedown: (event) => {
            event.preventDefault();
            choose(index);
          } },
        h("code", {}, item.label), item.hint ? h("span", { class: "hint" }, item.hint) : null));
    });
  }

  function choose(index) {
    input.value = items[index].insert;
    input.focus();
    refresh();
  }

  input.addEventListener("input", refresh);
  input.addEventListener("keydown", (event) => {
    if (items.length && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
      event.preventDefault();
      active = (active + (event.key === "ArrowDown" ? 1 : items.length - 1)) % items.length;
      paint();
    } else if (items.length && event.key === "Tab") {
      event.preventDefault();
      choose(Math.max(active, 0));
    } else if (event.key === "Escape") {
      items = [];
      paint();
    } else if (event.key === "Enter") {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      send(text);
      input.value = "";
      items = [];
      paint();
    }
  });
  input.addEventListener("blur", () => setTimeout(() => { items = []; paint(); }, 150));

  const element = h("section", { class: "chat" },
    h("h2", { "data-i18n": "chat.title" }, t("chat.title")),
    list,
    h("div", { class: "chat-entry" }, input, menu),
    h("p", { class: "hint", "data-i18n": "chat.hint" }, t("chat.hint")));

  return {
    element,
    input,
    add(kind, ...parts) {
      list.append(h("li", { class: `chat-${kind}` }, parts));
      while (list.children.length > 300) list.firstChild.remove();
      list.scrollTop = list.scrollHeight;
    },
  };
}
