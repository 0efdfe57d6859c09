// The table page: seats and clocks, what you may do now, the game drawn by its own module, the chat
// (slash commands included) and the log in words. Everything is redrawn from the server's `table`
// messages; errors come back translated, above the game, with the fresh table drawn at once.

import { createPacer, stepTime } from "./animate.js";
import { BOT_LEVELS, chatBox } from "./chat.js";
import { clear, h, redrawKeepingFocus, whenNotPressed } from "./dom.js";
import { errorText } from "./errors.js";
import { has, language, onLanguageChange, t } from "./i18n.js";
import { identityForm } from "./identity.js";
import { CLOCKS, SEAT_OPTIONS, choiceLabel, choicesOf, clockLabel, copyLink, optionHelp, optionLabel } from "./lobby.js";
import { api } from "./net.js";
import { shownRating } from "./profile.js";
import { actionWords, eventSentences, reasonWords as sharedReasonWords, sentence } from "./words.js";
import { notifyTurn, playTurnSound } from "./settings.js";

const GAME_MODULES = {
  geister: () => import("./games/geister.js"),
  ghooost: () => import("./games/ghooost.js"),
  thelast: () => import("./games/thelast.js"),
};

// The last seconds of a clock are shown big, in a warning colour, with an icon and words.
const CLOCK_WARNING_SECONDS = 10;

function formatSeconds(value) {
  const seconds = Math.max(0, Math.ceil(value));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

// The favicon with a badge: the page's ghost and a bright dot, as a data: address (no request).
const TURN_ICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40">'
  + '<path fill="#f4f1ff" stroke="#3a3358" stroke-width="2" d="M7 35 V17 a13 13 0 0 1 26 0 V35 l-4.3 -3.5 l-4.4 3.5 l-4.3 -3.5 l-4.3 3.5 l-4.4 -3.5 z"/>'
  + '<circle cx="15" cy="16" r="2.6" fill="#3a3358"/><circle cx="25" cy="16" r="2.6" fill="#3a3358"/>'
  + '<circle cx="31" cy="9" r="8.5" fill="#e8590c" stroke="#fff" stroke-width="2"/></svg>')}`;

export function tablePage(root, connection, tableId) {
  const params = new URLSearchParams(location.search);
  let wantJoin = params.get("join") === "1";
  let wantBots = Number(params.get("bots") || 0);
  const botLevel = BOT_LEVELS.includes(params.get("level")) ? params.get("level") : null;
  let wantStart = params.get("start") === "1"; // "Play now" in the lobby: start once the bots sit
  let message = null; // the last `table` message
  let gameModule = null;
  let loadingGame = null;
  let renderer = null;
  let gameSpecs = null;
  let clockBase = 0;
  const logLines = [];
  // The table's last game from its record (GET /api/tables/{id}/final): what the address shows once the
  // table has closed, and the rating changes of a rated game at its end.
  let final = null;
  let finalAsked = null; // the result it was asked for (one request per finished game)
  let noTable = false; // no table and no finished game here: say so and offer the lobby

  const table = () => message?.table;
  /** The table closed: its address shows the last game from the record, nothing to do there. */
  const closed = () => Boolean(message?.closed);
  const mySeat = () => (message ? message.seat : null);
  /** I left or resigned this running game: a bot plays my seat to the end, I only watch it. */
  const gaveUp = () => ["left", "resigned"].includes(table()?.seats?.[mySeat()]?.takeover);
  const seatName = (seat) => {
    if (seat === "ghost") return t("thelast.ghost");
    const info = table()?.seats?.[seat];
    if (!info) return t("seat.number", { seat: Number(seat) + 1 });
    if (info.kind === "bot") return t("seat.bot", { seat: Number(seat) + 1, level: t(`bot.${info.bot}`) });
    if (info.kind === "empty") return t("seat.number", { seat: Number(seat) + 1 });
    return info.name;
  };

  // --- sending ------------------------------------------------------------------------------------
  const errorBanner = h("div", { class: "error-banner", role: "alert", hidden: true });
  let errorTimer = null;
  function showError(error) {
    errorBanner.hidden = false;
    errorBanner.textContent = errorText(error);
    clearTimeout(errorTimer);
    errorTimer = setTimeout(() => (errorBanner.hidden = true), 12000);
  }
  function hideError() {
    errorBanner.hidden = true;
  }

  function command(text, { withVersion = true, retries = 2, version = undefined } = {}) {
    const msg = { type: "command", table: tableId, text };
    // Only a game move depends on the position it was chosen in: it carries the version drawn, so a move
    // made against an old board is refused as stale. Table commands (/leave, /resign, /option, chat) do
    // not, or every bot move landing meanwhile would refuse them.
    const isMove = (message?.view?.legal || []).includes(text.replace(/^\//, ""));
    if (withVersion && isMove && table()) msg.version = version ?? table().version;
    hideError();
    return connection.request(msg).catch((error) => {
      // Someone else (a bot setting up at the same moment) changed the table. The error carries the
      // fresh table; when the same action is still allowed there, send it again against that version
      // instead of troubling the player.
      if (error?.code !== "stale_version") return undefined; // shown by the error handler
      const action = text.replace(/^\//, "");
      const fresh = error?.fresh ?? message;
      if (retries > 0 && (fresh?.view?.legal || []).includes(action)) {
        return command(text, { withVersion, retries: retries - 1, version: fresh?.table?.version });
      }
      reportError(error);
      return undefined;
    });
  }
  const act = (actionText) => command(`/${actionText}`);

  /** A name as the server wrote it ("easy bot" for bots) shown in the reader's language. */
  const displayName = (label) => displayNames([label])[0];
  /** Several such names: equal bot labels ("easy bot" twice) go to different bot seats, in seat order. */
  const displayNames = (labels) => {
    const used = new Set();
    return labels.map((label) => {
      const bot = table()?.seats?.find((seat) => seat.kind === "bot" && seat.name === label && !used.has(seat.seat));
      if (!bot) return label;
      used.add(bot.seat);
      return seatName(bot.seat);
    });
  };

  const ctx = { t, act, seatName, seat: mySeat, table, command };

  // --- the parts of the page ----------------------------------------------------------------------
  const head = h("section", { class: "table-head" });
  const identitySlot = h("div", { class: "identity-slot" });
  const statusBanner = h("div", { class: "turn-banner", role: "status" });
  // The step of the last move being played out ("Bot 2 gambles: 7."), one at a time (see playSteps).
  // It keeps its one line when idle, so a caption coming or going never shifts what is under the pointer.
  const stepCaption = h("div", { class: "step-caption idle", "aria-live": "polite" });
  // The end of the game in words: who won, why, the scores explained, what became public.
  const endPanel = h("section", { class: "end-panel", "aria-labelledby": "end-panel-title", hidden: true });
  let endPanelClosedAt = null; // the version whose panel was dismissed
  const controls = h("div", { class: "controls", role: "toolbar", "aria-label": t("table.controls"),
    "data-i18n-aria-label": "table.controls" });
  const pregame = h("section", { class: "pregame" });
  const gameArea = h("div", { class: "game-area" });
  // Seat plates around the game: the others above it, mine below it (a spectator sees them all above).
  const seats = h("section", { class: "seats seats-others", "aria-label": t("table.seats"), "data-i18n-aria-label": "table.seats" });
  const mySeatSlot = h("section", { class: "seats seats-mine" });
  const logList = h("ol", { class: "log-lines" });
  const logBox = h("section", { class: "log" }, h("h2", { class: "log-title", "data-i18n": "log.title" }, t("log.title")), logList);
  const chat = chatBox({
    send: (text) => command(text, { withVersion: false }),
    context: () => ({
      gameCommands: renderer?.commands || [],
      optionNames: gameSpecs && table() ? Object.keys(gameSpecs[table().game]?.options || {}).concat(["clock", "rated"]) : [],
    }),
  });

  // Leaving a running game asks first (the Lobby link, any link away; closing or reloading the tab gets
  // the browser's own question): a bot plays the seat to the end, and a rated game counts as a loss.
  const playingNow = () => !closed() && table()?.status === "started" && mySeat() !== null && mySeat() !== undefined && !gaveUp();
  const leaveDialog = h("div", { class: "leave-confirm", role: "alertdialog", "aria-modal": "true",
    "aria-labelledby": "leave-question", "aria-describedby": "leave-why", hidden: true });
  let leaving = false;
  let leaveReturn = null;
  function askBeforeLeaving(href, from) {
    leaveReturn = from;
    const stay = () => {
      leaveDialog.hidden = true;
      leaveReturn?.focus?.();
    };
    clear(leaveDialog).append(
      h("p", { id: "leave-question", class: "confirm-question" }, t("table.leave_confirm")),
      h("p", { id: "leave-why" }, t(table()?.rated ? "table.leave_rated" : "table.leave_unrated")),
      h("div", { class: "confirm-buttons" },
        h("a", { class: "button danger do-leave-page", href, onclick: () => (leaving = true) }, t("table.leave_yes")),
        h("button", { type: "button", class: "leave-cancel primary", onclick: stay }, t("table.leave_no"))));
    leaveDialog.onkeydown = (event) => {
      if (event.key === "Escape") stay();
    };
    leaveDialog.hidden = false;
    leaveDialog.querySelector(".leave-cancel").focus();
  }
  document.addEventListener("click", (event) => {
    if (!playingNow() || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const link = event.target.closest?.("a[href]");
    if (!link || link.target === "_blank" || link.closest(".leave-confirm")) return;
    const url = new URL(link.href, location.href);
    if (url.origin === location.origin && url.pathname === location.pathname) return; // this very table
    event.preventDefault();
    askBeforeLeaving(link.href, link);
  }, true);
  window.addEventListener("beforeunload", (event) => {
    if (!playingNow() || leaving) return;
    event.preventDefault();
    event.returnValue = ""; // the browser asks in its own words
  });

  // The layout (issue 32, docs/web.md "The table fits the screen"): whose turn it is and the table's
  // actions in one bar over the game; the chat and the log in a side column on a wide screen and in a
  // drawer on a phone (the head's "Chat and log" opens it); the page's classes name the game, its state
  // and the number of players, so the stylesheet lays each game out for its player count.
  const tablePage = h("div", { class: "table-page" });
  const openDrawer = (open) => {
    tablePage.classList.toggle("drawer-open", open);
    drawerButton.setAttribute("aria-expanded", String(open));
  };
  const sideColumn = h("aside", { class: "side-column", id: "table-side", onkeydown: (event) => {
    // Escape in the chat's input closes its completions (chat.js); elsewhere in the drawer it closes it.
    if (event.key === "Escape" && tablePage.classList.contains("drawer-open") && !event.target.matches?.(".chat-input")) {
      openDrawer(false);
      drawerButton.focus();
    }
  } }, chat.element, logBox);
  const drawerButton = h("button", { class: "drawer-toggle", "aria-controls": "table-side", "aria-expanded": "false",
    onclick: () => openDrawer(!tablePage.classList.contains("drawer-open")) }, t("table.drawer"));
  tablePage.append(
    leaveDialog, head, identitySlot, errorBanner,
    h("div", { class: "table-body" },
      h("div", { class: "main-column" },
        h("div", { class: "table-bar" }, statusBanner, controls),
        stepCaption, seats, pregame, endPanel, gameArea, mySeatSlot),
      sideColumn));
  root.append(tablePage);

  function drawLayoutClasses() {
    const info = table();
    tablePage.className = ["table-page", info ? `game-${info.game}` : "", info ? `status-${info.status}` : "",
      info ? `players-${info.seats.length}` : "", drawerButton.getAttribute("aria-expanded") === "true" ? "drawer-open" : "",
      info?.game === "geister" && message?.view?.phase === "setup" && !message.view.set_up?.[mySeat()] ? "phase-setup" : ""].filter(Boolean).join(" ");
  }

  function drawHead() {
    clear(head);
    const info = table();
    const game = info?.game;
    const link = `${location.origin}/table/${encodeURIComponent(tableId)}`;
    if (noTable) {
      head.append(h("h1", {}, t("table.none_title")),
        h("p", { class: "no-table" }, t("error.no_such_table", { table: tableId }), " ",
          h("a", { class: "button primary to-lobby", href: "/" }, t("table.to_lobby"))));
      return;
    }
    const replay = final?.record ? `/replay/${final.record}` : null;
    head.append(...[
      h("h1", {}, game ? t(`game.${game}`) : t("table.loading")),
      h("span", { class: "table-id" }, t("table.id", { id: tableId })),
      info ? h("span", { class: `chip status-${info.status}` }, t(`status.table.${info.status}`)) : null,
      info && info.round > 1 ? h("span", { class: "chip" }, t("table.game_number", { n: info.round })) : null,
      info ? h("span", { class: `chip rated rated-${info.rated ? "on" : "off"}` }, t(info.rated ? "table.rated" : "table.unrated")) : null,
      closed() ? null : h("button", { class: "invite", onclick: (event) => copyLink(link, event.currentTarget), title: link }, t("lobby.invite")),
      replay && (closed() || info?.status === "closed") ? h("a", { class: "button replay-link", href: replay }, t("table.replay")) : null,
      replay && (closed() || info?.status === "closed") && Number.isInteger(final.seat)
        ? h("a", { class: "button replay-mine", href: `${replay}?seat=${final.seat}` }, t("profile.my_seat")) : null,
      game ? h("a", { class: "help-link button", href: `/help/${language()}/${game}.html`, target: "_blank" }, t("table.help")) : null,
      closed() ? null : h("span", { class: "spectators muted" }, info ? t("table.spectators", { n: info.spectators ?? 0 }) : ""),
      closed() ? h("p", { class: "closed-note" }, t("table.closed_note")) : null,
      drawerButton,
    ].filter(Boolean));
    drawerButton.textContent = t("table.drawer");
  }

  let identityShown = null;
  function drawIdentity(force = false) {
    const wanted = !connection.user && connection.ready && !closed() && !noTable;
    if (!force && wanted === identityShown) return; // keep what someone is typing
    identityShown = wanted;
    clear(identitySlot);
    if (wanted) {
      identitySlot.append(h("div", { class: "card" }, h("p", {}, t("table.need_name")), identityForm(connection, { compact: true })));
    }
  }

  /** A seat's clock: its text ("0:28"), and whether it runs now with little time left. */
  function clockOf(seat) {
    const clock = table()?.clock;
    if (!clock || clock.mode === "none") return { text: "", low: false };
    const elapsed = (performance.now() - clockBase) / 1000;
    const left = clock.deadline_in?.[seat];
    if (left !== null && left !== undefined) {
      const remaining = left - elapsed;
      return { text: formatSeconds(remaining), low: remaining <= CLOCK_WARNING_SECONDS };
    }
    const bank = clock.bank?.[seat];
    if (bank !== null && bank !== undefined) return { text: formatSeconds(bank), low: false };
    return { text: clock.mode === "move" ? formatSeconds(clock.seconds) : "", low: false };
  }

  /** What a seat holds, read from the game's view: ghosts on the board, cards in hand, a mansion, a pile. */
  function seatCounts(seat) {
    const view = message?.view;
    if (!view) return [];
    if (view.game === "geister") {
      const onBoard = (view.ghosts || []).filter((ghost) => ghost.owner === seat && ghost.status === "board").length;
      return [["ghosts", t("plate.ghosts", { n: onBoard })]];
    }
    if (view.game === "ghooost") {
      const info = (view.seats || []).find((entry) => entry.seat === seat);
      return info ? [["hand", t("plate.cards", { n: info.hand })], ["mansion", t("ghooost.mansion_count", { n: info.mansion })]] : [];
    }
    if (view.game === "thelast") {
      const info = (view.participants || []).find((entry) => entry.who === seat);
      return info ? [["hand", t("plate.cards", { n: info.hand_size })], ["pile", t("plate.pile", { n: info.pile_size })]] : [];
    }
    return [];
  }

  /** A seat's clock, and the words that say its last seconds run (not colour alone). */
  function clockBox(seat, turn) {
    const clock = clockOf(seat);
    return h("span", { class: "clock-box" },
      h("span", { class: `clock ${clock.low && turn ? "low" : ""}`, dataset: { clockSeat: seat } }, clock.text),
      h("span", { class: "clock-warning", hidden: !(clock.low && turn) }, t("table.clock_low")));
  }

  // Ghooost! and The Last draw a panel per seat themselves (hand, mansion, points, known cards): those
  // panels are the seat plates, and the table adds what only it knows (the clock, away, a bot playing).
  // Geister draws none, so the table's own plates stand around its board. An observer keeps the
  // additions through every redraw of the game, animated or not.
  const GAME_PANELS = ".ghooost-seat[data-seat], .participant[data-who]";
  const GAMES_WITH_PANELS = ["ghooost", "thelast"];
  const gameDrawsSeats = () => GAMES_WITH_PANELS.includes(table()?.game) && table()?.status === "started" && Boolean(message?.view);
  function decoratePanels(fresh = false) {
    const info = table();
    if (!info || !renderer) return;
    if (fresh || !gameDrawsSeats()) for (const old of renderer.element.querySelectorAll(".table-extra")) old.remove();
    if (!gameDrawsSeats()) return; // before and after the game the table's own plates show the seats
    const toAct = new Set(info.to_act || []);
    for (const panel of renderer.element.querySelectorAll(GAME_PANELS)) {
      const seat = Number(panel.dataset.seat ?? panel.dataset.who);
      const entry = info.seats[seat];
      if (!Number.isInteger(seat) || !entry) continue; // The Last's ghost has no seat
      if (panel.querySelector(":scope > .table-extra")) continue;
      const state = [];
      if (entry.kind === "human" && !entry.connected) state.push(t("seat.away"));
      if (entry.takeover) state.push(t(`takeover.${entry.takeover}`));
      panel.classList.add("seat", "plate", `kind-${entry.kind}`);
      panel.classList.toggle("me", seat === mySeat());
      panel.dataset.seat = String(seat);
      panel.append(h("div", { class: "table-extra" },
        seat === mySeat() && !gaveUp() ? h("span", { class: "chip you" }, t("seat.you")) : null,
        state.length ? h("span", { class: "seat-state muted" }, state.join(", ")) : null,
        clockBox(seat, toAct.has(seat) && info.status === "started")));
    }
  }
  let panelObserver = null;
  function watchPanels() {
    if (panelObserver || !renderer) return;
    panelObserver = new MutationObserver(() => decoratePanels());
    panelObserver.observe(renderer.element, { childList: true, subtree: true });
  }

  function seatPlate(seat, info, toAct) {
    const running = info.status === "started";
    const turn = toAct.has(seat.seat) && running;
    const state = [];
    if (seat.kind === "human" && !seat.connected) state.push(t("seat.away"));
    if (seat.takeover) state.push(t(`takeover.${seat.takeover}`));
    const counts = seat.kind === "empty" ? [] : seatCounts(seat.seat);
    return h("li", { class: `seat plate kind-${seat.kind} ${turn ? "to-act" : ""} ${seat.seat === mySeat() ? "me" : ""}`,
        dataset: { seat: seat.seat } },
      h("span", { class: "seat-no", "aria-hidden": "true" }, String(seat.seat + 1)),
      h("span", { class: "seat-name" }, seat.kind === "empty" ? t("seat.empty") : seatName(seat.seat)),
      seat.seat === mySeat() && !gaveUp() ? h("span", { class: "chip you" }, t("seat.you")) : null,
      turn ? h("span", { class: "chip turn", title: t("seat.to_act") }, "▶ ", t("seat.to_act")) : null,
      state.length ? h("span", { class: "seat-state muted" }, state.join(", ")) : null,
      counts.length
        ? h("span", { class: "seat-counts" }, counts.map(([kind, text]) => h("span", { class: `count count-${kind}` }, text)))
        : null,
      clockBox(seat.seat, turn),
    );
  }

  function drawSeats() {
    clear(seats);
    clear(mySeatSlot);
    const info = table();
    if (!info || gameDrawsSeats()) return;
    const toAct = new Set(info.to_act || []);
    const me = mySeat();
    // The others in seat order after mine, so the one who plays after me sits first.
    const count = info.seats.length;
    const start = me === null || me === undefined ? 0 : me + 1;
    const others = Array.from({ length: count }, (_, i) => info.seats[(start + i) % count]).filter((seat) => seat.seat !== me);
    seats.append(h("ol", { class: "seat-list" }, others.map((seat) => seatPlate(seat, info, toAct))));
    const mine = info.seats.find((seat) => seat.seat === me);
    if (mine) mySeatSlot.append(h("ol", { class: "seat-list" }, seatPlate(mine, info, toAct)));
  }

  function tickClocks() {
    const toAct = new Set(table()?.to_act || []);
    const running = table()?.status === "started";
    for (const el of document.querySelectorAll("[data-clock-seat]")) {
      const seat = Number(el.dataset.clockSeat);
      const clock = clockOf(seat);
      const low = clock.low && running && toAct.has(seat);
      el.textContent = clock.text;
      el.classList.toggle("low", low);
      const warning = el.parentElement?.querySelector(".clock-warning");
      if (warning) warning.hidden = !low;
    }
  }
  setInterval(tickClocks, 500);

  /** At a table without a clock: the others may claim against a person to move who stayed idle past the
   * server's threshold (the summary's claim_in counts down from the last table message). */
  function claimable() {
    const info = table();
    const me = mySeat();
    const claimIn = info?.clock?.claim_in;
    if (info?.status !== "started" || me === null || me === undefined || !claimIn || gaveUp()) return false;
    if (info.seats[me]?.takeover || claimIn[me] !== null) return false;  // my own turn: move first
    const elapsed = (performance.now() - clockBase) / 1000;
    return claimIn.some((left, seat) => seat !== me && left !== null && left - elapsed <= 0);
  }
  let claimShown = false;
  setInterval(() => {
    if (claimable() !== claimShown) drawControls();  // the threshold passed since the last message
  }, 1000);

  function claimButtons() {
    const claim = (what) => command(`/claim ${what}`, { withVersion: false });
    if (table().seats.length > 2) {
      return [h("button", { class: "do-claim-bot", onclick: () => claim("win") }, t("table.claim_bot"))];
    }
    return [h("button", { class: "do-claim-win primary", onclick: () => claim("win") }, t("table.claim_win")),
      h("button", { class: "do-claim-draw", onclick: () => claim("draw") }, t("table.claim_draw"))];
  }

  function button(label, text, { primary = false, cls = "" } = {}) {
    // The control's own class first: a redraw finds the focused control again by its first class (dom.js).
    return h("button", { class: `${cls}${primary ? " primary" : ""}`, onclick: () => command(text) }, label);
  }

  // Resigning cannot be undone: the button asks first, in the page (no browser dialog), Escape cancels.
  let confirmingResign = false;
  function resignConfirmation() {
    const cancel = () => {
      confirmingResign = false;
      drawControls();
      controls.querySelector(".do-resign")?.focus();
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

  // Every table update redraws the controls (a bot's move, a clock, someone joining). The focus and the bot
  // level picked stay as they were across a redraw, so a keyboard player is not thrown back mid-choice.
  function drawControls() {
    const level = controls.querySelector(".bot-level")?.value;  // picked, not yet added
    redrawKeepingFocus(controls, buildControls);
    const picker = controls.querySelector(".bot-level");
    if (picker && level) picker.value = level;
  }

  /** The controls for the table's state, into the emptied `controls` (drawControls empties it). */
  function buildControls() {
    if (table()?.status !== "started") confirmingResign = false;
    claimShown = claimable();
    const info = table();
    if (!info || !connection.user || closed()) return;
    const seated = mySeat() !== null && mySeat() !== undefined;
    const empty = info.seats.filter((seat) => seat.kind === "empty");
    const bots = info.seats.filter((seat) => seat.kind === "bot");
    if (info.status === "open") {
      if (!seated && empty.length) controls.append(button(t("table.join"), "/join", { primary: true, cls: "do-join" }));
      if (seated || info.created_by === connection.user.name) {
        if (empty.length) {
          const level = h("select", { class: "bot-level", "aria-label": t("table.bot_level") },
            BOT_LEVELS.map((name) => h("option", { value: name }, t(`bot.${name}`))));
          controls.append(h("span", { class: "group" }, level,
            h("button", { class: "do-bot-add", onclick: () => command(`/bot add ${level.value}`) }, t("table.add_bot"))));
        }
        if (bots.length) controls.append(button(t("table.remove_bot"), "/bot remove", { cls: "do-bot-remove" }));
      }
      if (seated) {
        controls.append(button(t("table.start"), "/start", { primary: !empty.length, cls: "do-start" }));
        controls.append(button(t("table.leave"), "/leave", { cls: "do-leave" }));
      }
    } else if (info.status === "started") {
      if (claimShown) controls.append(h("span", { class: "group claim" }, t("table.claim_hint"), " ", ...claimButtons()));
      if (seated && !gaveUp()) controls.append(confirmingResign ? resignConfirmation() : h("button", { class: "do-resign danger",
        onclick: () => {
          confirmingResign = true;
          drawControls();
          controls.querySelector(".resign-cancel")?.focus();
        } }, t("table.resign")));
    } else if (info.status === "finished") {
      if (seated) {
        // A rematch is proposed by one and accepted by the others (bots accept at once).
        const asked = info.rematch || [];
        if (!asked.includes(mySeat())) {
          const label = asked.length ? t("table.rematch_accept") : t("table.rematch");
          controls.append(button(label, "/rematch", { primary: true, cls: "do-rematch" }));
        }
        controls.append(button(t("table.leave"), "/leave", { cls: "do-leave" }));
      }
    }
  }

  /** Who is for a vote option: the people who voted yes and every bot (bots always agree). */
  function agreeing(info, voters) {
    return voters.length + (info?.seats || []).filter((seat) => seat.kind === "bot").length;
  }

  function drawPregame() {
    clear(pregame);
    const info = table();
    if (!info || info.status !== "open") return;
    const spec = gameSpecs?.[info.game];
    pregame.append(h("h2", {}, t("table.options")));
    const seated = mySeat() !== null && mySeat() !== undefined;
    const rows = h("dl", { class: "option-list" });
    for (const [name, option] of Object.entries(spec?.options || {})) {
      let value;
      if (option.vote) {
        const voters = info.votes?.[name] || [];
        const mine = seated && voters.includes(mySeat());
        value = h("span", { class: "vote-count" },
          t("table.votes", { n: agreeing(info, voters), total: info.seats.length }), " ",
          seated
            ? h("label", { class: "vote" },
                h("input", { type: "checkbox", name: `vote-${name}`, checked: mine,
                  onchange: (event) => command(`/option ${name} ${event.target.checked ? "on" : "off"}`) }),
                t("table.vote_yes"))
            : null);
      } else {
        const current = info.settings?.[name] ?? option.default;
        const choices = choicesOf(option);
        if (SEAT_OPTIONS.includes(name)) {
          // a seat: shown and typed from 1 (`/option first 1` is the first seat), kept from 0
          const select = h("select", { name: `setting-${name}`, disabled: !seated,
              onchange: () => command(`/option ${name} ${select.value === "" ? "none" : Number(select.value) + 1}`) },
            h("option", { value: "", selected: current === null || current === undefined }, t("choice.random")),
            info.seats.map((seat) => h("option", { value: String(seat.seat), selected: current === seat.seat }, String(seat.seat + 1))));
          value = select;
        } else if (seated && choices) {
          const select = h("select", { name: `setting-${name}`, onchange: () => {
              const choice = choices[Number(select.value)];
              command(`/option ${name} ${choice === true ? "on" : choice === false ? "off" : choice === null ? "none" : choice}`);
            } },
            choices.map((choice, index) =>
              h("option", { value: index, selected: JSON.stringify(choice) === JSON.stringify(current) }, choiceLabel(choice))));
          value = select;
        } else if (seated) {
          const input = h("input", { name: `setting-${name}`, inputmode: "numeric", size: 6, value: current ?? "",
            placeholder: t("choice.none"),
            onchange: () => command(`/option ${name} ${input.value.trim() === "" ? "none" : input.value.trim()}`) });
          value = input;
        } else {
          value = h("span", {}, choiceLabel(current));
        }
      }
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
    pregame.append(rows);
    pregame.append(h("p", { class: "hint" }, t("table.open_hint")));
  }

  /** The players' names in a result, bots named in the reader's language. */
  function resultNames(info) {
    return info.seats.map((seat, index) => (seat.kind === "bot" ? seatName(index) : info.result?.names?.[index] ?? seatName(index)));
  }

  function resultText(info) {
    const result = info.result;
    if (!result) return "";
    const outcome = result.outcome;
    const names = resultNames(info);
    const winners = outcome.results.map((r, seat) => (r.result === "win" ? names[seat] : null)).filter(Boolean);
    const parts = [];
    if (outcome.results.every((r) => r.result === "draw")) parts.push(t("result.draw"));
    else if (winners.length) parts.push(t(winners.length > 1 ? "result.winners" : "result.winner", { names: winners.join(", ") }));
    const reason = reasonWords(outcome.reason, ctx);
    if (reason) parts.push(`(${reason})`);
    return parts.join(" ");
  }

  /** Outside the tab too: the title says "Your turn" and the favicon wears a badge while it is yours. */
  const favicon = document.querySelector("link[rel=icon]");
  const plainIcon = favicon?.getAttribute("href");
  let wasMyTurn = false;
  function signalTurn(mine) {
    const game = table()?.game;
    // It just became my turn: a short sound and, when the player asked for them, a notification
    if (mine && !wasMyTurn) {
      playTurnSound();
      notifyTurn(t("table.title_your_turn"));
    }
    wasMyTurn = mine;
    document.title = mine ? t("table.title_your_turn")
      : game ? t("table.title", { game: t(`game.${game}`) }) : t("ui.title");
    document.body.dataset.myTurn = mine ? "1" : "0";
    if (favicon) favicon.setAttribute("href", mine ? TURN_ICON : plainIcon);
  }

  /** Why a game ended, in words (words.js, shared with the replay). */
  function reasonWords(reason, readerCtx) {
    return sharedReasonWords(reason, gameModule, readerCtx);
  }

  /** A seat's score in words ("12 points", "penalty 7"); games whose score is only win or loss say nothing. */
  function scoreWords(score) {
    const value = Number.isInteger(score) ? score : Number(score).toFixed(1);
    return gameModule?.scoreText ? gameModule.scoreText(value, ctx, message?.view) : "";
  }

  /** Which game a result is: its reason and ranks (the record's copy of the outcome may order its keys
   * otherwise). */
  const gameKey = (outcome) => (outcome ? `${outcome.reason}|${outcome.results.map((r) => r.rank).join(",")}` : "");

  /** The table's last game from its record: asked once a rated game is over (its rating changes) and
   * when the table closes (the replay link). */
  function askFinal() {
    const info = table();
    if (!info || closed()) return;
    const wanted = (info.status === "finished" && info.rated) || info.status === "closed";
    const key = gameKey(info.result?.outcome);
    if (!wanted || finalAsked === key) return;
    finalAsked = key;
    api(`/tables/${encodeURIComponent(tableId)}/final`).then((found) => {
      found.key = gameKey(found.table?.result?.outcome);
      final = found;
      drawHead();
      drawEndPanel();
    }, () => {});
  }

  /** The rating changes of the game shown, by seat ("1000 → 927"), when it was rated. */
  function ratingChanges(info) {
    if (!final?.ratings || !info?.result || final.key !== gameKey(info.result.outcome)) return {};
    return final.ratings;
  }

  /** The address of a table that is gone: its last game from the record, or "no such table". */
  function showClosedTable() {
    if (message && !closed() && table()?.status !== "closed") return; // a live table: nothing to do
    api(`/tables/${encodeURIComponent(tableId)}/final`).then((found) => {
      found.key = gameKey(found.table?.result?.outcome);
      final = found;
      message = { type: "table", table: found.table, seat: found.seat, view: found.view, closed: true };
      document.body.dataset.tableStatus = "closed";
      hideError();
      chat.element.hidden = true;
      logBox.hidden = true;
      drawAll();
      drawIdentity(true);
    }, () => {
      noTable = true;
      hideError();
      chat.element.hidden = true;
      logBox.hidden = true;
      drawAll();
      drawIdentity(true);
    });
  }

  function drawEndPanel() {
    const info = table();
    const outcome = info?.status === "finished" || closed() ? info.result?.outcome : null;
    if (!outcome || endPanelClosedAt === info.version) {
      endPanel.hidden = true;
      clear(endPanel);
      return;
    }
    clear(endPanel);
    endPanel.hidden = false;
    const names = resultNames(info);
    const winners = outcome.results.map((r, seat) => (r.result === "win" ? names[seat] : null)).filter(Boolean);
    const headline = outcome.results.every((r) => r.result === "draw") ? t("result.draw")
      : t(winners.length > 1 ? "result.winners" : "result.winner", { names: winners.join(", ") });
    const reason = reasonWords(outcome.reason, ctx);
    const changes = ratingChanges(info);
    const ranking = h("ol", { class: "end-ranking" },
      outcome.results
        .map((r, seat) => ({ ...r, seat }))
        .sort((a, b) => a.rank - b.rank)
        .map((r) => {
          const score = scoreWords(r.score);
          const takeover = info.result.takeovers?.[r.seat];
          const change = changes[String(r.seat)];
          return h("li", { class: `result-${r.result}`, dataset: { seat: r.seat } },
            h("span", { class: "end-rank" }, `${r.rank}.`), " ", h("strong", {}, names[r.seat] ?? seatName(r.seat)), " – ",
            t(`result.word.${r.result}`), score ? ` – ${score}` : "",
            takeover ? ` (${t("result.bot_finished", { reason: t(`takeover.${takeover}`) })})` : "",
            change ? h("span", { class: "end-rating" }, " – ",
              t("end.rating_change", { before: shownRating(change.before), after: shownRating(change.after) })) : "");
        }));
    endPanel.append(
      h("h2", { id: "end-panel-title" }, t("end.title")),
      h("p", { class: "end-result" }, headline),
      reason ? h("p", { class: "end-reason" }, t("end.reason", { reason })) : null,
      ranking,
      renderer?.endDetails?.() ?? null,
      h("div", { class: "end-buttons" },
        closed() ? null : h("button", { class: "end-close", onclick: () => {
          endPanelClosedAt = info.version;
          drawEndPanel();
        } }, t("end.close"))));
  }

  function drawStatus() {
    clear(statusBanner);
    const info = table();
    statusBanner.className = "turn-banner";
    signalTurn(Boolean(info && info.status === "started" && (info.to_act || []).includes(mySeat()) && !gaveUp()));
    if (!info) return;
    if (info.status === "open") {
      const empty = info.seats.filter((seat) => seat.kind === "empty").length;
      statusBanner.append(empty ? t("table.waiting_players", { n: empty }) : t("table.ready_to_start"));
    } else if (info.status === "started") {
      const toAct = info.to_act || [];
      if (toAct.includes(mySeat())) {
        statusBanner.classList.add("my-turn");
        const key = gameModule?.turnPrompt ? gameModule.turnPrompt(message.view) : "table.your_turn";
        statusBanner.append(t(key));
      } else {
        statusBanner.append(t("table.waiting_for", { names: toAct.map(seatName).join(", ") || "…" }));
      }
    } else if (info.status === "finished" || closed()) {
      statusBanner.classList.add("finished");
      const result = h("div", { class: "result" }, h("strong", {}, t("result.title")), " ", resultText(info));
      const outcome = info.result?.outcome;
      if (outcome) {
        const names = resultNames(info);
        const ranking = h("ul", { class: "ranking" });
        outcome.results
          .map((r, seat) => ({ ...r, seat }))
          .sort((a, b) => a.rank - b.rank)
          .forEach((r) => ranking.append(h("li", { class: `result-${r.result}` },
            scoreWords(r.score)
              ? t("result.line", { rank: r.rank, name: names[r.seat] ?? seatName(r.seat), result: t(`result.word.${r.result}`),
                  score: scoreWords(r.score) })
              : t("result.line_plain", { rank: r.rank, name: names[r.seat] ?? seatName(r.seat), result: t(`result.word.${r.result}`) }),
            info.result.takeovers?.[r.seat] ? ` (${t("result.bot_finished", { reason: t(`takeover.${info.result.takeovers[r.seat]}`) })})` : "")));
        result.append(ranking);
      }
      statusBanner.append(result);
      const asked = info.rematch || [];
      if (asked.length) {
        statusBanner.append(h("p", { class: "rematch-asked" },
          t("table.rematch_asked", { names: asked.map(seatName).join(", ") })));
      }
    }
  }

  async function drawGame() {
    const info = table();
    if (!info) return;
    if (!gameModule) {
      // One import however many table messages arrive meanwhile.
      loadingGame ||= GAME_MODULES[info.game]().then((module) => {
        gameModule = module;
        renderer = gameModule.createRenderer(ctx);
        clear(gameArea);
        gameArea.append(renderer.element);
        drawLog(); // the log speaks the game's words only once its module is here
      });
      await loadingGame;
    }
    if (message.view) {
      renderer.element.hidden = false;
      renderer.update(message.view);
    } else {
      renderer.element.hidden = true;
    }
    watchPanels();
    decoratePanels(true);
    drawStatus();
    drawEndPanel();
  }

  function drawAll() {
    drawLayoutClasses();
    drawHead();
    drawIdentity();
    drawSeats();
    drawControls();
    drawPregame();
    drawStatus();
    drawGame();
  }

  // --- the log and chat ---------------------------------------------------------------------------
  /**
   * A seat's name as it was when `line` was written (the line's `names`), in the reader's language: the
   * log never renames the past after people leave and bots sit down. Lines without `names` use today's.
   */
  function nameThen(line, seat) {
    const was = seat === "ghost" ? null : line.names?.[seat];
    if (!was) return seatName(seat);
    if (was.bot) return t("seat.bot", { seat: Number(seat) + 1, level: t(`bot.${was.bot}`) });
    return was.name ?? seatName(seat);
  }

  /** The context for reading `line`: seats named as they were when it was written. */
  function lineContext(line) {
    return line.names?.length ? { ...ctx, seatName: (seat) => nameThen(line, seat) } : ctx;
  }

  /** The steps of an action line in words, one sentence per game event ("plays 8 8", "gambles: 7"). */
  function actionSteps(line) {
    return eventSentences(line.events, gameModule, lineContext(line));
  }

  /**
   * Play out the steps of the moves just drawn, one caption at a time, and say how long the next update
   * must wait: each step of a move gets its moment on screen (a bot's Ghooost! chain is several moves,
   * each its own update, so it plays out one by one; my own card is seen in the trick before the bots
   * answer it).
   */
  let stepTimers = [];
  function playSteps(lines, pace) {
    const steps = [];
    for (const line of lines) {
      if (line.kind === "action") steps.push(...actionSteps(line));
    }
    if (!steps.length) return 0;
    stepTimers.forEach(clearTimeout);
    stepTimers = [];
    const show = (index) => {
      stepCaption.classList.remove("idle");
      stepCaption.dataset.step = String(index + 1);
      stepCaption.textContent = steps[index];
    };
    const step = stepTime(pace);
    show(0);
    steps.slice(1).forEach((_, i) => stepTimers.push(setTimeout(() => show(i + 1), step * (i + 1))));
    stepTimers.push(setTimeout(() => stepCaption.classList.add("idle"), step * steps.length + 2500));
    return step * steps.length;
  }

  function lineText(line) {
    const args = { ...(line.args || {}) };
    const lineCtx = lineContext(line);
    const wasBot = (seat) => (line.names?.length ? Boolean(line.names[seat]?.bot) : table()?.seats?.[seat]?.kind === "bot");
    if (line.kind === "action") {
      let text = actionWords(args.seat, args.action, line.events, gameModule, lineCtx);
      if (args.by === "bot" && !wasBot(args.seat)) text += ` (${t("log.by_bot")})`;
      if (args.by === "clock") text += ` (${t("log.by_clock")})`;
      return text;
    }
    if (line.kind === "finished") {
      const reason = sentence(reasonWords(args.reason, lineCtx));
      // by seat when the line says (two "easy bot"s are two seats), else by the label as written
      const winners = (Array.isArray(args.winner_seats) ? args.winner_seats.map((seat) => lineCtx.seatName(seat))
        : line.names?.length
        ? (args.winners || []).map((label) => {
            const seat = line.names.findIndex((was) => was.name === label);
            return seat >= 0 ? nameThen(line, seat) : label;
          })
        : displayNames(args.winners || [])).join(", ");
      return winners ? t("log.finished", { winners, reason }) : t("log.finished_draw", { reason });
    }
    if (typeof args.seat === "number") {
      args.seat_no = args.seat + 1;
      if (wasBot(args.seat)) args.name = nameThen(line, args.seat);
    }
    // an old line without `names`: bot labels ("easy bot") named by today's seats
    if (typeof args.name === "string" && !line.names?.length) args.name = displayName(args.name);
    if (Array.isArray(args.waiting)) args.waiting = displayNames(args.waiting);
    if (line.kind === "takeover") args.reason = t(`takeover.${args.reason}`);
    if (line.kind === "claimed") {
      args.against = displayName(args.against);
      const key = (line.names?.length ?? 2) > 2 ? "log.claimed_bot" : `log.claimed_${args.claim}`;
      return t(key, { ...args, against_no: args.against_seat + 1 });
    }
    if (line.kind === "rematch_withdrawn") args.names = displayNames(args.names || []);
    if (line.kind === "bot_added" || line.kind === "bot_removed") args.level = t(`bot.${args.level}`);
    const game = table()?.game;
    const optionName = line.kind === "vote" ? args.option : line.kind === "option" ? args.name : null;
    if (optionName) {
      args.option = optionName === "clock" ? t("lobby.clock") : has(`option.${game}.${optionName}`) ? optionLabel(game, optionName) : optionName;
      args.value = optionName === "clock" ? clockLabel(String(args.value ?? "none"))
        : SEAT_OPTIONS.includes(optionName) && args.value === null ? t("choice.random") // a seat: already from 1
        : choiceLabel(args.value);
    }
    for (const [key, value] of Object.entries(args)) if (Array.isArray(value)) args[key] = value.join(", ");
    return has(`log.${line.kind}`) ? t(`log.${line.kind}`, args) : line.text;
  }

  function drawLog() {
    clear(logList);
    for (const line of logLines.slice(-200)) logList.append(h("li", { class: `log-${line.kind}` }, lineText(line)));
    logList.scrollTop = logList.scrollHeight;
  }

  function addLogLines(lines) {
    logLines.push(...lines);
    drawLog();
  }

  function addChat(msg) {
    chat.add("message", h("strong", {}, msg.from ?? t("chat.someone")), ": ", msg.text);
  }

  function helpReply(msg) {
    const topic = msg.args?.topic;
    const game = table()?.game;
    const commands = topic ? [topic] : ["join", "leave", "start", "option", "bot", "who", "help", "resign", "rematch", "claim", ...(renderer?.commands || [])];
    return h("div", { class: "help-reply" },
      h("p", {}, t("reply.help")),
      h("ul", {}, commands.map((name) => h("li", {}, h("code", {}, `/${name}`), " ", t(`cmd.${name}`)))),
      game ? h("a", { href: `/help/${language()}/${game}.html`, target: "_blank" }, t("reply.help_link", { game: t(`game.${game}`) })) : null);
  }

  function whoReply(msg) {
    const info = table();
    const lines = (info?.seats || []).map((seat) =>
      `${seat.seat + 1}: ${seat.kind === "empty" ? t("seat.empty") : seatName(seat.seat)}${seat.kind === "human" ? ` (${t(seat.connected ? "seat.here" : "seat.away")})` : ""}`);
    const spectators = msg.args?.spectators || [];
    return h("div", { class: "who-reply" }, h("p", {}, t("reply.who")), h("ul", {}, lines.map((line) => h("li", {}, line))),
      h("p", {}, t("reply.spectators", { names: spectators.length ? spectators.join(", ") : "–" })));
  }

  function optionsReply(msg) {
    const info = table();
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

  // --- messages from the server -------------------------------------------------------------------
  function applyTable(msg) {
    if (msg.table?.id !== tableId || closed()) return;
    // A fresh table that came with an error may overtake updates still waiting their turn in the pacer.
    if (message && msg.table.version < message.table.version && !msg.history) return;
    const firstTime = message === null;
    message = msg;
    clockBase = performance.now();
    // For tests and tools: what the page last drew.
    document.body.dataset.tableVersion = String(msg.table.version);
    document.body.dataset.tableStatus = msg.table.status;
    if (msg.history) {
      logLines.length = 0;
      chat.element.querySelector(".chat-lines").replaceChildren();
      for (const item of msg.history) {
        if (item.kind === "chat") addChat(item);
        else if (item.kind === "log" && Array.isArray(item.lines)) logLines.push(...item.lines);
        else if (item.kind === "log" && item.line) logLines.push(item.line);
        else logLines.push(item);
      }
      drawLog();
    }
    drawAll();
    autoActions(firstTime);
    askFinal();
  }

  function autoActions() {
    const info = table();
    if (!info || !connection.user) return;
    const seated = mySeat() !== null && mySeat() !== undefined;
    if (wantJoin && !seated && info.status === "open") {
      wantJoin = false;
      command("/join");
      return;
    }
    if (wantBots > 0 && seated && info.status === "open") {
      const empty = info.seats.filter((seat) => seat.kind === "empty").length;
      const count = Math.min(wantBots, empty);
      wantBots = 0;
      history.replaceState(null, "", location.pathname);
      (async () => {
        for (let i = 0; i < count; i++) await command(botLevel ? `/bot add ${botLevel}` : "/bot add", { withVersion: false });
        if (wantStart) {
          wantStart = false;
          await command("/start", { withVersion: false });
        }
      })();
    }
  }

  // Server updates redraw the page; one that arrives mid-click waits for the click (see whenNotPressed).
  // Updates are played out in order at a readable pace (animate.js createPacer; playSteps says how long
  // each waits); one that is due mid-click still waits for the click (see whenNotPressed).
  const pacer = createPacer();
  connection.on("table", (msg) => {
    if (msg.history) pacer.flush(); // a reload or reconnection: the whole table again, no replay
    pacer.push(() => {
      whenNotPressed(() => applyTable(msg));
      return 0;
    });
  });
  connection.on("log", (msg) => {
    if (msg.table !== tableId) return;
    pacer.push((pace) => {
      addLogLines(msg.lines || []);
      return playSteps(msg.lines || [], pace);
    });
  });
  connection.on("chat", (msg) => {
    if (msg.table === tableId) addChat(msg);
  });
  connection.on("reply", (msg) => {
    if (msg.table && msg.table !== tableId) return;
    const body = msg.code === "help" ? helpReply(msg) : msg.code === "who" ? whoReply(msg) : msg.code === "options" ? optionsReply(msg) : msg.text;
    chat.add("reply", body);
  });
  function reportError(msg) {
    showError(msg);
    // "The table changed meanwhile" is news only for a moment: the banner says it and goes; the chat
    // keeps what lasts
    if (msg.code !== "stale_version") chat.add("error", errorText(msg));
  }
  connection.on("error", (msg) => {
    if (msg.table && msg.table !== tableId) return;
    if (msg.code === "no_such_table" && (msg.args?.table ?? tableId) === tableId) {
      showClosedTable(); // closed (its last game from the record) or never here: no "Loading" forever
      return;
    }
    // A stale request is the command's own business: it resends it quietly or reports it (see command).
    if (!(msg.code === "stale_version" && msg.id)) reportError(msg);
    if (msg.fresh) whenNotPressed(() => applyTable(msg.fresh));
  });
  connection.onOpen(() => {
    drawIdentity();
    connection.send({ type: "watch", table: tableId });
  });
  onLanguageChange(() => {
    drawAll();
    drawIdentity(true);
    renderer?.redraw();
    drawLog();
  });
  api("/games").then((games) => {
    gameSpecs = Object.fromEntries(games.map((game) => [game.name, game]));
    drawPregame();
  }, () => {});
  drawHead();
}
