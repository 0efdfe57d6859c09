// The lobby: who you are, the games with a form to open a table, and the open and running tables,
// kept live by the server's lobby_update messages (changes only; the whole list comes once per `lobby`).

import { clear, h, whenNotPressed } from "./dom.js";
import { errorText } from "./errors.js";
import { has, onLanguageChange, t } from "./i18n.js";
import { identityForm, logout } from "./identity.js";

export const CLOCKS = ["none", "30", "60", "120", "300+5", "600+10"];

export function clockLabel(value) {
  if (value === "none") return t("clock.none");
  const [bank, increment] = value.split("+");
  return increment ? t("clock.bank", { minutes: Number(bank) / 60, increment }) : t("clock.move", { seconds: bank });
}

/** An option's label; an option newer than the catalogs shows its own name rather than a key. */
export function optionLabel(game, name) {
  return has(`option.${game}.${name}`) ? t(`option.${game}.${name}`) : name;
}

export function optionHelp(game, name, spec) {
  return has(`option.${game}.${name}.help`) ? t(`option.${game}.${name}.help`) : spec?.help ?? "";
}

export function choiceLabel(value) {
  if (value === true) return t("choice.on");
  if (value === false) return t("choice.off");
  if (value === null || value === undefined) return t("choice.none");
  return has(`choice.${value}`) ? t(`choice.${value}`) : String(value);
}

// Options whose value is a seat: the wire and the games count seats from 0, people from 1 (a form shows
// 1..N and sends N - 1; at a table `/option first 1` is typed as read).
export const SEAT_OPTIONS = ["first"];

/** The values to offer for an option: its choices, or on/off(/none) when the server says so in words. */
export function choicesOf(spec) {
  if (spec.choices && spec.choices.length) return spec.choices;
  if (/^on or off/.test(spec.allowed || "")) return /none/.test(spec.allowed) ? [null, true, false] : [true, false];
  return null;
}

/** The form fields for a game's options (from GET /api/games); returns [fields, read()]. */
export function optionFields(game) {
  const inputs = [];
  const fields = [];
  for (const [name, spec] of Object.entries(game.options || {})) {
    let input;
    const id = `opt-${game.name}-${name}`;
    const choices = choicesOf(spec);
    if (SEAT_OPTIONS.includes(name)) {
      input = h("select", { id, name },
        h("option", { value: "" }, t("choice.random")),
        Array.from({ length: game.max_players }, (_, seat) => h("option", { value: String(seat) }, String(seat + 1))));
      inputs.push([name, () => (input.value === "" ? undefined : Number(input.value)), spec]);
    } else if (choices) {
      input = h("select", { id, name });
      choices.forEach((choice, index) => {
        const option = h("option", { value: String(index) }, choiceLabel(choice));
        if (JSON.stringify(choice) === JSON.stringify(spec.default)) option.selected = true;
        input.append(option);
      });
      inputs.push([name, () => choices[Number(input.value)], spec]);
    } else {
      input = h("input", { id, name, inputmode: "numeric", size: 6,
        placeholder: spec.default === null || spec.default === undefined ? t("choice.none") : String(spec.default) });
      inputs.push([name, () => (input.value.trim() === "" ? undefined : Number(input.value.trim())), spec]);
    }
    const vote = spec.vote ? h("span", { class: "vote-tag" }, t("lobby.vote_option")) : null;
    fields.push(h("div", { class: "field" },
      h("label", { for: id }, optionLabel(game.name, name), vote),
      input,
      h("small", { class: "help" }, optionHelp(game.name, name, spec))));
  }
  const read = () => {
    const options = {};
    for (const [name, get, spec] of inputs) {
      const value = get();
      if (value !== undefined && JSON.stringify(value) !== JSON.stringify(spec.default)) options[name] = value;
    }
    return options;
  };
  return [fields, read];
}

function seatText(seat) {
  if (seat.kind === "empty") return t("seat.empty");
  if (seat.kind === "bot") return t("seat.bot", { seat: seat.seat + 1, level: t(`bot.${seat.bot}`) });
  return seat.name;
}

export function lobbyPage(root, connection) {
  let games = [];
  const tables = new Map();
  const message = h("p", { class: "error-banner", role: "alert", hidden: true });

  const showError = (error) => {
    message.hidden = false;
    message.textContent = errorText(error);
  };

  function createForm(game) {
    const [fields, read] = optionFields(game);
    const seats = h("select", { name: "seats", id: `seats-${game.name}` });
    for (let n = game.min_players; n <= game.max_players; n++) seats.append(h("option", { value: n }, String(n)));
    const clock = h("select", { name: "clock", id: `clock-${game.name}` },
      CLOCKS.map((value) => h("option", { value }, clockLabel(value))));
    const bots = h("select", { name: "bots", id: `bots-${game.name}` },
      h("option", { value: "0" }, t("lobby.no_bots")),
      h("option", { value: "fill", selected: true }, t("lobby.fill_bots")));
    return h("form", { class: "create-form", dataset: { game: game.name }, onsubmit: (event) => {
        event.preventDefault();
        if (!connection.user) {
          showError({ code: "auth_required" });
          return;
        }
        const fill = bots.value === "fill" ? Number(seats.value) - 1 : 0;
        connection.request({ type: "create", game: game.name, seats: Number(seats.value), options: read(),
          clock: clock.value, join: true })
          .then((ack) => {
            const query = fill > 0 ? `?bots=${fill}` : "";
            location.href = `/table/${encodeURIComponent(ack.table)}${query}`;
          }, showError);
      } },
      h("div", { class: "field" }, h("label", { for: seats.id }, t("lobby.seats")), seats),
      fields,
      h("div", { class: "field" }, h("label", { for: clock.id }, t("lobby.clock")), clock),
      h("div", { class: "field" }, h("label", { for: bots.id }, t("lobby.bots")), bots),
      h("button", { type: "submit", class: "primary" }, t("lobby.create")),
    );
  }

  function tableRow(table) {
    const link = `${location.origin}/table/${encodeURIComponent(table.id)}`;
    const open = table.status === "open";
    const hasEmpty = table.seats.some((seat) => seat.kind === "empty");
    return h("li", { class: `table-row status-${table.status}`, dataset: { table: table.id } },
      h("span", { class: "table-game" }, t(`game.${table.game}`)),
      h("span", { class: "table-status" }, t(`status.table.${table.status}`)),
      h("span", { class: "table-seats" }, table.seats.map(seatText).join(" · ")),
      h("span", { class: "table-actions" },
        open && hasEmpty
          ? h("a", { class: "button primary join", href: `/table/${encodeURIComponent(table.id)}?join=1` }, t("lobby.join"))
          : null,
        h("a", { class: "button watch", href: `/table/${encodeURIComponent(table.id)}` }, t("lobby.watch")),
        h("button", { class: "invite", title: link, onclick: (event) => copyLink(link, event.currentTarget) }, t("lobby.invite"))),
    );
  }

  // Three parts drawn on their own, so a lobby update never wipes a form someone is filling in.
  const whoSlot = h("div", {});
  const gamesSlot = h("div", { class: "games" });
  const tablesSlot = h("div", { class: "table-lists" });
  let drawnUser;
  let drawnGames;

  function drawWho(force = false) {
    const user = connection.ready ? connection.user?.name ?? null : undefined;
    if (!force && user === drawnUser) return;
    drawnUser = user;
    clear(whoSlot).append(connection.user
      ? h("section", { class: "card identity-card" },
          h("h2", {}, t("lobby.you")),
          h("p", {}, t("ui.playing_as", { name: connection.user.name }), " ",
            h("button", { class: "link", onclick: () => logout(connection) }, t("identity.logout"))))
      : h("section", { class: "card identity-card" }, h("h2", {}, t("lobby.choose_name")), identityForm(connection)));
  }

  function drawGames(force = false) {
    // A fresh lobby message (after a reconnect, say) carries the same games: keep the forms as filled in.
    const key = JSON.stringify(games);
    if (!force && drawnGames === key) return;
    drawnGames = key;
    clear(gamesSlot).append(h("h2", {}, t("lobby.new_table")), ...games.map((game) =>
      h("section", { class: "card game-card", dataset: { game: game.name } },
        h("h3", {}, t(`game.${game.name}`)),
        h("p", { class: "muted" }, t(`game.${game.name}.blurb`), " ",
          h("a", { href: `/help/${document.documentElement.lang}/${game.name}.html` }, t("ui.rules"))),
        h("p", { class: "muted" }, game.min_players === game.max_players
          ? t("lobby.players_exact", { n: game.min_players })
          : t("lobby.players", { min: game.min_players, max: game.max_players })),
        createForm(game))));
  }

  function drawTables() {
    const listed = [...tables.values()].filter((table) => table.status !== "finished");
    const byStatus = (status) => listed.filter((table) => table.status === status);
    const list = (status, title) =>
      h("section", { class: `card tables tables-${status}` },
        h("h2", {}, title),
        byStatus(status).length
          ? h("ul", { class: "table-list" }, byStatus(status).map(tableRow))
          : h("p", { class: "muted" }, t("lobby.none")));
    clear(tablesSlot).append(list("open", t("lobby.open_tables")), list("started", t("lobby.running_tables")));
  }

  function draw(force = false) {
    drawWho(force);
    drawGames(force);
    drawTables();
  }

  root.append(h("div", { class: "lobby" },
    h("h1", { "data-i18n": "lobby.title" }, t("lobby.title")),
    message,
    whoSlot,
    h("div", { class: "lobby-columns" }, gamesSlot, tablesSlot)));

  // The table lists are rebuilt on every update; one arriving mid-click waits for the click.
  connection.on("lobby", (msg) => {
    games = msg.games || [];
    tables.clear();
    for (const table of msg.tables || []) tables.set(table.id, table);
    whenNotPressed(draw);
  });
  // Changes since the last update (the server gathers them, a few a second at most): tables new or
  // changed, and ids of tables gone; one we never heard of being removed is simply not there.
  connection.on("lobby_update", (msg) => {
    for (const table of msg.tables || []) tables.set(table.id, table);
    for (const id of msg.removed || []) tables.delete(id);
    whenNotPressed(drawTables);
  });
  connection.on("error", (msg) => {
    if (!msg.id) showError(msg);
  });
  connection.onOpen(() => {
    drawWho();
    connection.send({ type: "lobby" });
  });
  onLanguageChange(() => draw(true));
  draw();
}

export function copyLink(link, button) {
  const done = () => {
    button.textContent = t("ui.copied");
    setTimeout(() => (button.textContent = t("lobby.invite")), 1500);
  };
  if (navigator.clipboard) navigator.clipboard.writeText(link).then(done, () => window.prompt(t("lobby.invite"), link));
  else window.prompt(t("lobby.invite"), link);
}
