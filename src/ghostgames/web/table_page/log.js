// The table's log in the reader's words: each line is drawn from its kind and arguments (the server's
// English text only when no translation exists), with seats named as they were when it was written.

import { clear, h } from "../dom.js";
import { has, t } from "../i18n.js";
import { SEAT_OPTIONS, choiceLabel, clockLabel, optionLabel } from "../lobby.js";
import { actionWords, eventSentences, reasonWords, sentence } from "../words.js";

const SHOWN_LINES = 200;

export function createLog(state, ctx) {
  const list = h("ol", { class: "log-lines" });
  const element = h("section", { class: "log" }, h("h2", { class: "log-title", "data-i18n": "log.title" }, t("log.title")), list);

  /**
   * A seat's name as it was when `line` was written (the line's `names`), in the reader's language: the
   * log never renames the past after people leave and bots sit down. Lines without `names` use today's.
   */
  function nameThen(line, seat) {
    const was = seat === "ghost" ? null : line.names?.[seat];
    if (!was) return state.seatName(seat);
    if (was.bot) return t("seat.bot", { seat: Number(seat) + 1, level: t(`bot.${was.bot}`) });
    return was.name ?? state.seatName(seat);
  }

  /** The context for reading `line`: seats named as they were when it was written. */
  function lineContext(line) {
    return line.names?.length ? { ...ctx, seatName: (seat) => nameThen(line, seat) } : ctx;
  }

  /** The steps of an action line in words, one sentence per game event ("plays 8 8", "gambles: 7"). */
  function actionSteps(line) {
    return eventSentences(line.events, state.game, lineContext(line));
  }

  /**
   * The outcome a finished line reports, for reasonWords: the outcome itself when the line carries it,
   * else the English reason with the reason's code and arguments the server sends beside it
   * (`reason_code`, `reason_args`; older servers send neither and the English is read).
   */
  const finishedOutcome = (line) => line.args?.outcome
    ?? { reason: line.args?.reason, code: line.args?.reason_code, args: line.args?.reason_args };

  /** "X won. Why." for a finished game: winners by seat when the line says (two "easy bot"s are two seats). */
  function finishedText(line, args, lineCtx) {
    const reason = sentence(reasonWords(finishedOutcome(line), state.game, lineCtx));
    const winners = (Array.isArray(args.winner_seats) ? args.winner_seats.map((seat) => lineCtx.seatName(seat))
      : line.names?.length
      ? (args.winners || []).map((label) => {
          const seat = line.names.findIndex((was) => was.name === label);
          return seat >= 0 ? nameThen(line, seat) : label;
        })
      : state.displayNames(args.winners || [])).join(", ");
    return winners ? t("log.finished", { winners, reason }) : t("log.finished_draw", { reason });
  }

  /** An option's name and value in words, for the lines that set or vote on one. */
  function optionWords(args, optionName) {
    const game = state.table()?.game;
    args.option = optionName === "clock" ? t("lobby.clock") : has(`option.${game}.${optionName}`) ? optionLabel(game, optionName) : optionName;
    args.value = optionName === "clock" ? clockLabel(String(args.value ?? "none"))
      : SEAT_OPTIONS.includes(optionName) && args.value === null ? t("choice.random") // a seat: already from 1
      : choiceLabel(args.value);
  }

  function lineText(line) {
    const args = { ...(line.args || {}) };
    const lineCtx = lineContext(line);
    const wasBot = (seat) => (line.names?.length ? Boolean(line.names[seat]?.bot) : state.table()?.seats?.[seat]?.kind === "bot");
    if (line.kind === "action") {
      let text = actionWords(args.seat, args.action, line.events, state.game, lineCtx);
      if (args.by === "bot" && !wasBot(args.seat)) text += ` (${t("log.by_bot")})`;
      if (args.by === "clock") text += ` (${t("log.by_clock")})`;
      return text;
    }
    if (line.kind === "finished") return finishedText(line, args, lineCtx);
    if (typeof args.seat === "number") {
      args.seat_no = args.seat + 1;
      if (wasBot(args.seat)) args.name = nameThen(line, args.seat);
    }
    // an old line without `names`: bot labels ("easy bot") named by today's seats
    if (typeof args.name === "string" && !line.names?.length) args.name = state.displayName(args.name);
    if (Array.isArray(args.waiting)) args.waiting = state.displayNames(args.waiting);
    if (line.kind === "takeover") args.reason = t(`takeover.${args.reason}`);
    if (line.kind === "claimed") {
      args.against = state.displayName(args.against);
      const key = (line.names?.length ?? 2) > 2 ? "log.claimed_bot" : `log.claimed_${args.claim}`;
      return t(key, { ...args, against_no: args.against_seat + 1 });
    }
    if (line.kind === "rematch_withdrawn") args.names = state.displayNames(args.names || []);
    if (line.kind === "bot_added" || line.kind === "bot_removed") args.level = t(`bot.${args.level}`);
    const optionName = line.kind === "vote" ? args.option : line.kind === "option" ? args.name : null;
    if (optionName) optionWords(args, optionName);
    for (const [key, value] of Object.entries(args)) if (Array.isArray(value)) args[key] = value.join(", ");
    // the line's code when the server sent one, else its kind; the server's English when neither has words
    const key = [line.code, line.kind].filter(Boolean).map((name) => `log.${name}`).find(has);
    return key ? t(key, args) : line.text;
  }

  function draw() {
    clear(list);
    for (const line of state.logLines.slice(-SHOWN_LINES)) list.append(h("li", { class: `log-${line.kind}` }, lineText(line)));
    list.scrollTop = list.scrollHeight;
  }

  function add(lines) {
    state.logLines.push(...lines);
    draw();
  }

  return { element, draw, add, actionSteps };
}
