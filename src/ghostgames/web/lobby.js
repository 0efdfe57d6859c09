// The lobby: who you are, a tile per game (a picture, "Play now against a bot" in one click, "Find an
// opponent" through quick play with its waiting line, the full table form folded away), the tables you
// sit at, and the open and running tables, kept live by the server's lobby_update messages (changes
// only; the whole list comes once per `lobby`).

import { BOT_LEVELS } from "./chat.js";
import { clear, h, s, whenNotPressed } from "./dom.js";
import { errorText } from "./errors.js";
import { has, onLanguageChange, t } from "./i18n.js";
import { identityForm, logout } from "./identity.js";
import { quickPlay, quickStatusLine } from "./quickplay.js";

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

// "Play now": the fewest seats the game allows, the others filled with bots of this level, started at once.
export const QUICK_BOT_LEVEL = "medium";
const FORM_BOT_LEVEL = "easy"; // the full form's bots, as /bot add without a level

const GHOST_PATH = "M7 35 V17 a13 13 0 0 1 26 0 V35 l-4.3 -3.5 l-4.4 3.5 l-4.3 -3.5 l-4.3 3.5 l-4.4 -3.5 z";

function tileGhost(x, y, scale, cls) {
  return s("g", { transform: `translate(${x} ${y}) scale(${scale})` },
    s("path", { d: GHOST_PATH, class: `tile-ghost ${cls}` }),
    s("circle", { cx: 15, cy: 16, r: 2.6, class: "tile-eye" }),
    s("circle", { cx: 25, cy: 16, r: 2.6, class: "tile-eye" }));
}

function tileCard(x, y, angle, label, cls) {
  return s("g", { transform: `translate(${x} ${y}) rotate(${angle})` },
    s("rect", { x: -18, y: -27, width: 36, height: 54, rx: 4, class: `tile-card ${cls}` }),
    s("text", { x: 0, y: 7, "text-anchor": "middle", class: `tile-value ${cls}` }, label));
}

/** A small picture of each game, drawn here (no images): a board corner, a fan of cards, a trick; a game
 * without a picture of its own (one newer than this page) shows a ghost. */
export function gamePicture(name) {
  const svg = s("svg", { viewBox: "0 0 160 90", class: `game-picture picture-${name}`, "aria-hidden": "true" });
  svg.append(s("rect", { x: 0, y: 0, width: 160, height: 90, rx: 10, class: "tile-sky" }));
  if (name === "geister") {
    for (let row = 0; row < 3; row++) {
      for (let col = 0; col < 5; col++) {
        svg.append(s("rect", { x: 20 + col * 24, y: 10 + row * 24, width: 24, height: 24,
          class: (row + col) % 2 ? "tile-square" : "tile-square dark" }));
      }
    }
    svg.append(tileGhost(45, 33, 0.55, "good"), s("circle", { cx: 56, cy: 48, r: 3, class: "tile-good-mark" }),
      tileGhost(93, 9, 0.55, "bad"), s("path", { d: "M101 21 l6 6 M107 21 l-6 6", class: "tile-bad-mark" }),
      s("path", { d: "M133 20 l8 -8 l8 8 h-5 v8 h-6 v-8 z", class: "tile-exit" }));
  } else if (name === "ghooost") {
    svg.append(tileCard(52, 52, -18, "3", "ghost"), tileCard(72, 46, -6, "8", "ghost"), tileCard(92, 46, 6, "8", "ghost"),
      tileCard(112, 52, 18, "K", "kitty"), tileGhost(126, 2, 0.7, "floating"));
  } else if (name === "thelast") {
    svg.append(tileCard(44, 46, -10, "7", "red"), tileCard(80, 42, 0, "12", "blue"), tileCard(116, 46, 10, "3", "green"),
      s("path", { d: "M80 78 l-6 8 h12 z", class: "tile-crown" }));
  } else {
    svg.append(tileGhost(62, 14, 0.9, "floating"));
  }
  return svg;
}

/** A game's name for people: the catalog's words, else the title the server sends with the game (a game
 * newer than the catalogs), else its name. */
export function gameTitle(name, games = []) {
  if (has(`game.${name}`)) return t(`game.${name}`);
  return games.find((game) => game.name === name)?.title ?? name;
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
    if (error?.code === "auth_required") {
      // "Choose a name first": bring the name field to the eye and the keyboard
      const field = whoSlot.querySelector("input[name=guest-name]");
      field?.scrollIntoView({ block: "center" });
      field?.focus({ preventScroll: true });
    }
  };
  /** The bot level a tile's Play now and its form use: the player's choice, kept in the browser. */
  const LEVEL_KEY = "ghostgames.botLevel";
  // Unless one was chosen: Play now meets a `medium` bot, the full form fills seats with `easy` ones.
  const chosenLevel = (fallback = QUICK_BOT_LEVEL) => (BOT_LEVELS.includes(localStorage.getItem(LEVEL_KEY))
    ? localStorage.getItem(LEVEL_KEY) : fallback);
  function levelPicker(game, where) {
    const wanted = chosenLevel(where === "form" ? FORM_BOT_LEVEL : QUICK_BOT_LEVEL);
    const id = `level-${where}-${game.name}`;
    const select = h("select", { id, name: "bot-level", class: "bot-level",
        onchange: () => localStorage.setItem(LEVEL_KEY, select.value) },
      BOT_LEVELS.map((level) => h("option", { value: level, selected: level === wanted }, t(`bot.${level}`))));
    return [h("label", { for: id, class: "bot-level-label" }, t("table.bot_level")), select];
  }
  // Each tile's quick-play line and "Find an opponent" button, updated in place as the one wait goes on.
  const quickLines = [];
  const findButtons = [];
  const quick = quickPlay(() => {
    quickLines.forEach((line) => line.update());
    findButtons.forEach((button) => (button.disabled = quick.state.game === button.dataset.game));
  });
  quick.resume();
  // The "Rated" boxes of the create forms follow who you are: an account may choose, a guest plays unrated.
  const ratedBoxes = [];

  function ratedField(game) {
    const id = `rated-${game.name}`;
    const box = h("input", { type: "checkbox", id, name: "rated" });
    const help = h("small", { class: "help", id: `${id}-help` });
    box.setAttribute("aria-describedby", help.id);
    box.sync = () => {
      const account = Boolean(connection.user && !connection.user.guest);
      if (box.account !== account) box.checked = account;  // checked by default for an account holder
      box.account = account;
      box.disabled = !account;
      help.textContent = account ? t("table.rated_help") : t("lobby.rated_guest");
    };
    box.sync();
    ratedBoxes.push(box);
    return [h("div", { class: "field rated-field" }, h("label", { for: id }, box, " ", t("table.rated")), help), box];
  }

  function createForm(game) {
    const [fields, read] = optionFields(game);
    const [ratedRow, rated] = ratedField(game);
    const seats = h("select", { name: "seats", id: `seats-${game.name}` });
    for (let n = game.min_players; n <= game.max_players; n++) seats.append(h("option", { value: n }, String(n)));
    // The game's own clock first and chosen (a rated table needs one); "none" is for unrated tables.
    const fallback = game.table_options?.clock?.default || "300+5";
    const clock = h("select", { name: "clock", id: `clock-${game.name}` },
      [...new Set([fallback, ...CLOCKS])].map((value) => h("option", { value, selected: value === fallback }, clockLabel(value))));
    const bots = h("select", { name: "bots", id: `bots-${game.name}` },
      h("option", { value: "0" }, t("lobby.no_bots")),
      h("option", { value: "fill", selected: true }, t("lobby.fill_bots")));
    const [levelLabel, level] = levelPicker(game, "form");
    return h("form", { class: "create-form", dataset: { game: game.name }, onsubmit: (event) => {
        event.preventDefault();
        if (!connection.user) {
          showError({ code: "auth_required" });
          return;
        }
        const fill = bots.value === "fill" ? Number(seats.value) - 1 : 0;
        const options = rated.checked ? read() : { ...read(), rated: false };
        connection.request({ type: "create", game: game.name, seats: Number(seats.value), options,
          clock: clock.value, join: true })
          .then((ack) => {
            const query = fill > 0 ? `?bots=${fill}&level=${encodeURIComponent(level.value)}` : "";
            location.href = `/table/${encodeURIComponent(ack.table)}${query}`;
          }, showError);
      } },
      h("div", { class: "field" }, h("label", { for: seats.id }, t("lobby.seats")), seats),
      fields,
      h("div", { class: "field" }, h("label", { for: clock.id }, t("lobby.clock")), clock),
      h("div", { class: "field" }, h("label", { for: bots.id }, t("lobby.bots")), bots),
      h("div", { class: "field" }, levelLabel, level),
      ratedRow,
      h("button", { type: "submit", class: "primary" }, t("lobby.create")),
    );
  }

  /** One click: a table with the fewest seats, you seated, bots in the others, started by the table page. */
  function playNow(game, button, level = chosenLevel()) {
    if (!connection.user) {
      showError({ code: "auth_required" });
      return;
    }
    button.disabled = true;
    const seatsWanted = Math.max(2, game.min_players);
    const options = connection.user.guest ? { rated: false } : {};  // a guest plays unrated: say so on the table
    // no clock named: the game's own, so a rated game always ends
    connection.request({ type: "create", game: game.name, seats: seatsWanted, options, join: true })
      .then((ack) => {
        const query = `?bots=${seatsWanted - 1}&level=${encodeURIComponent(level)}&start=1`;
        location.href = `/table/${encodeURIComponent(ack.table)}${query}`;
      }, (error) => {
        button.disabled = false;
        showError(error);
      });
  }

  function tableRow(table) {
    const link = `${location.origin}/table/${encodeURIComponent(table.id)}`;
    const open = table.status === "open";
    const hasEmpty = table.seats.some((seat) => seat.kind === "empty");
    return h("li", { class: `table-row status-${table.status}`, dataset: { table: table.id } },
      h("span", { class: "table-game" }, gameTitle(table.game, games)),
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
  const mineSlot = h("div", { class: "my-tables-slot" });
  let drawnUser;
  let drawnGames;

  function drawWho(force = false) {
    const user = connection.ready ? connection.user?.name ?? null : undefined;
    if (!force && user === drawnUser) return;
    drawnUser = user;
    ratedBoxes.forEach((box) => box.sync());
    if (connection.user && message.textContent === errorText({ code: "auth_required" })) message.hidden = true;
    clear(whoSlot).append(connection.user
      ? h("section", { class: "card identity-card" },
          h("h2", {}, t("lobby.you")),
          h("p", {}, t("ui.playing_as", { name: connection.user.name }), " ",
            h("button", { class: "link", onclick: () => logout(connection) }, t("identity.logout"))))
      : h("section", { class: "card identity-card" }, h("h2", {}, t("lobby.choose_name")), identityForm(connection)));
    drawMine();
  }

  function drawGames(force = false) {
    // A fresh lobby message (after a reconnect, say) carries the same games: keep the forms as filled in.
    const key = JSON.stringify(games);
    if (!force && drawnGames === key) return;
    drawnGames = key;
    quickLines.length = findButtons.length = ratedBoxes.length = 0;
    clear(gamesSlot).append(h("h2", {}, t("lobby.games")), h("div", { class: "game-tiles" }, games.map((game) => {
      const headingId = `tile-${game.name}`;
      return h("section", { class: "card game-card game-tile", dataset: { game: game.name }, "aria-labelledby": headingId },
        gamePicture(game.name),
        h("h3", { id: headingId }, gameTitle(game.name, games)),
        h("p", { class: "muted blurb" }, has(`game.${game.name}.blurb`) ? t(`game.${game.name}.blurb`) : ""),
        h("p", { class: "muted players" }, game.min_players === game.max_players
          ? t("lobby.players_exact", { n: game.min_players })
          : t("lobby.players", { min: game.min_players, max: game.max_players }),
          " · ", h("a", { href: `/help/${document.documentElement.lang}/${game.name}.html` }, t("ui.rules")),
          " · ", h("a", { class: "learn-link", href: `/learn/${game.name}` }, t("tutorial.learn"))),
        h("div", { class: "tile-actions" },
          h("button", { type: "button", class: "primary play-now", dataset: { game: game.name },
            onclick: (event) => playNow(game, event.currentTarget,
              event.currentTarget.closest(".game-tile")?.querySelector(".tile-level select")?.value) }, t("lobby.play_now")),
          findButton(game)),
        h("div", { class: "tile-level" }, ...levelPicker(game, "tile")),
        quickLine(game),
        h("details", { class: "advanced" },
          h("summary", {}, t("lobby.advanced")),
          createForm(game)));
    })));
  }

  /** "Find an opponent": wait in this game's quick-play queue (its line in the tile shows the wait). */
  function findButton(game) {
    const button = h("button", { type: "button", class: "find-opponent", dataset: { game: game.name },
      title: t("quick.blurb"), disabled: quick.state.game === game.name,
      onclick: () => quick.join(game.name) }, t("quick.find"));
    findButtons.push(button);
    return button;
  }

  function quickLine(game) {
    const line = quickStatusLine(game.name, quick, () => gameTitle(game.name, games));
    quickLines.push(line);
    return line;
  }

  /** The tables I sit at (open or running), first in the lobby so a closed tab is one click away. */
  function drawMine() {
    const me = connection.user?.name;
    const mine = me
      ? [...tables.values()].filter((table) => table.status !== "finished"
          && table.seats.some((seat) => seat.kind === "human" && seat.name === me))
      : [];
    clear(mineSlot);
    if (!me) return;
    mineSlot.append(h("section", { class: "card tables my-tables" },
      h("h2", {}, t("lobby.my_tables")),
      mine.length
        ? h("ul", { class: "table-list" }, mine.map((table) =>
            h("li", { class: `table-row status-${table.status}`, dataset: { table: table.id } },
              h("span", { class: "table-game" }, gameTitle(table.game, games)),
              h("span", { class: "table-status" }, t(`status.table.${table.status}`)),
              h("span", { class: "table-seats" }, table.seats.map(seatText).join(" · ")),
              h("span", { class: "table-actions" },
                h("a", { class: "button primary back-to-table", href: `/table/${encodeURIComponent(table.id)}` },
                  t("lobby.back_to_table"))))))
        : h("p", { class: "muted" }, t("lobby.no_tables_of_mine"))));
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
    drawMine();
  }

  function draw(force = false) {
    drawWho(force);
    drawGames(force);
    drawTables();
  }

  root.append(h("div", { class: "lobby" },
    h("h1", { "data-i18n": "lobby.title" }, t("lobby.title")),
    message,
    h("div", { class: "lobby-top" }, whoSlot, mineSlot),
    gamesSlot,
    tablesSlot));

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
    drawMine();
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
