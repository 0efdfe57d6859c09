// The table page: puts its panels together (table_page/*.js, one purpose each) around the table's state
// (table_page/state.js) and keeps them in step with the server. Everything is redrawn from the server's
// `table` messages; `log` lines are played out at a readable pace; errors come back translated, above the
// game, with the fresh table drawn at once.

import { createPacer } from "./animate.js";
import { chatBox } from "./chat.js";
import { h, whenNotPressed } from "./dom.js";
import { errorText } from "./errors.js";
import { onLanguageChange, t } from "./i18n.js";
import { api } from "./net.js";
import { createAutoActions } from "./table_page/auto_actions.js";
import { createClocks } from "./table_page/clocks.js";
import { createCommands } from "./table_page/commands.js";
import { createControls } from "./table_page/controls.js";
import { createEndPanel } from "./table_page/end_panel.js";
import { createErrorBanner } from "./table_page/error_banner.js";
import { createFinalRecord } from "./table_page/final_record.js";
import { createGameHost } from "./table_page/game_host.js";
import { createHead } from "./table_page/head.js";
import { createLayout } from "./table_page/layout.js";
import { createLeaveGuard } from "./table_page/leave_guard.js";
import { createLog } from "./table_page/log.js";
import { createNamePrompt } from "./table_page/name_prompt.js";
import { createOptions } from "./table_page/options.js";
import { createReplies } from "./table_page/replies.js";
import { createResultWords } from "./table_page/result_words.js";
import { createSeats } from "./table_page/seats.js";
import { createStatus } from "./table_page/status.js";
import { createStepCaption } from "./table_page/step_caption.js";
import { createTableState } from "./table_page/state.js";

export function tablePage(root, connection, tableId) {
  const state = createTableState(tableId);
  const banner = createErrorBanner();
  const { command, act } = createCommands(connection, state, { banner, report: reportError });
  // What a game's module may use: its words, its actions, the seats' names and the table.
  const ctx = { t, act, seatName: state.seatName, seat: state.mySeat, table: state.table, command };

  const chat = chatBox({
    send: (text) => command(text, { withVersion: false }),
    context: () => ({
      gameCommands: state.renderer?.commands || [],
      optionNames: state.gameSpecs && state.table()
        ? Object.keys(state.gameSpecs[state.table().game]?.options || {}).concat(["clock", "rated"]) : [],
    }),
  });
  const log = createLog(state, ctx);
  const layout = createLayout(state, { side: [chat.element, log.element] });
  const head = createHead(state, layout.drawerButton);
  const namePrompt = createNamePrompt(state, connection);
  const clocks = createClocks(state);
  const seats = createSeats(state, clocks);
  const controls = createControls(state, connection, { command, claimable: clocks.claimable });
  const options = createOptions(state, { command });
  const words = createResultWords(state, ctx);
  const status = createStatus(state, words);
  const finalRecord = createFinalRecord(state);
  const endPanel = createEndPanel(state, words, finalRecord);
  const stepCaption = createStepCaption(log);
  const leaveGuard = createLeaveGuard(state);
  const replyBody = createReplies(state);
  const autoActions = createAutoActions(state, connection, { command });
  const game = createGameHost(state, ctx, {
    // the parts that speak the game's words or depend on how it draws its seats
    onLoaded: () => {
      log.draw();
      layout.draw();
      seats.draw();
    },
    onDrawn: () => {
      seats.watchPanels();
      seats.decoratePanels(true);
      status.draw();
      endPanel.draw();
    },
  });

  layout.assemble({
    top: [leaveGuard.element, head.element, namePrompt.element, banner.element],
    bar: [status.element, controls.element],
    main: [stepCaption.element, seats.others, options.element, endPanel.element, game.element, seats.mine],
  });
  root.append(layout.element);

  function drawAll() {
    layout.draw();
    head.draw();
    namePrompt.draw();
    seats.draw();
    controls.draw();
    options.draw();
    status.draw();
    game.draw();
  }

  function addChat(msg) {
    chat.add("message", h("strong", {}, msg.from ?? t("chat.someone")), ": ", msg.text);
  }

  function applyTable(msg) {
    if (!state.accept(msg)) return;
    if (msg.history) {
      state.logLines.length = 0;
      chat.element.querySelector(".chat-lines").replaceChildren();
      for (const item of msg.history) {
        if (item.kind === "chat") addChat(item);
        else if (item.kind === "log" && Array.isArray(item.lines)) state.logLines.push(...item.lines);
        else if (item.kind === "log" && item.line) state.logLines.push(item.line);
        else state.logLines.push(item);
      }
      log.draw();
    }
    drawAll();
    autoActions();
    finalRecord.askIfWanted(() => {
      head.draw();
      endPanel.draw();
    });
  }

  /** The address of a table that is gone: its last game from the record, or "no such table". */
  function showClosedTable() {
    if (state.message && !state.closed() && state.table()?.status !== "closed") return; // a live table: nothing to do
    const showGone = () => {
      banner.hide();
      chat.element.hidden = true;
      log.element.hidden = true;
      drawAll();
      namePrompt.draw(true);
    };
    finalRecord.fetchFinal().then((found) => {
      state.acceptFinal(found);
      showGone();
    }, () => {
      state.noTable = true;
      showGone();
    });
  }

  function reportError(msg) {
    banner.show(msg);
    // "The table changed meanwhile" is news only for a moment: the banner says it and goes; the chat
    // keeps what lasts
    if (msg.code !== "stale_version") chat.add("error", errorText(msg));
  }

  // Updates are played out in order at a readable pace (animate.js createPacer; the step caption says how
  // long each waits); one that is due mid-click still waits for the click (see whenNotPressed).
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
      log.add(msg.lines || []);
      return stepCaption.play(msg.lines || [], pace);
    });
  });
  connection.on("chat", (msg) => {
    if (msg.table === tableId) addChat(msg);
  });
  connection.on("reply", (msg) => {
    if (msg.table && msg.table !== tableId) return;
    chat.add("reply", replyBody(msg));
  });
  connection.on("error", (msg) => {
    if (msg.table && msg.table !== tableId) return;
    if (msg.code === "no_such_table" && (msg.args?.table ?? tableId) === tableId) {
      showClosedTable(); // closed (its last game from the record) or never here: no "Loading" forever
      return;
    }
    // A stale request is the command's own business: it resends it quietly or reports it (see commands.js).
    if (!(msg.code === "stale_version" && msg.id)) reportError(msg);
    if (msg.fresh) whenNotPressed(() => applyTable(msg.fresh));
  });
  connection.onOpen(() => {
    namePrompt.draw();
    connection.send({ type: "watch", table: tableId });
  });
  onLanguageChange(() => {
    drawAll();
    namePrompt.draw(true);
    state.renderer?.redraw();
    log.draw();
  });
  api("/games").then((games) => {
    state.gameSpecs = Object.fromEntries(games.map((spec) => [spec.name, spec]));
    options.draw();
  }, () => {});
  head.draw();
}
