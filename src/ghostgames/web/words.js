// Words shared by the live table's log and the replay: a log sentence, why a game ended, and an action
// in the words of the game's events, so a replay's caption says exactly what the live log said.

import { has, t } from "./i18n.js";

/** A log sentence: capital first letter, closing full stop. */
export function sentence(text) {
  const trimmed = (text || "").trim();
  if (!trimmed) return "";
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

/**
 * Arguments of a reason code as a text shows them: a seat (from 0 in data) becomes its number from 1 and
 * a name, `seat` giving {seat} and {name}, `winner_seat` giving {winner_seat} and {winner}; a list is
 * joined with commas; the one other number is also the count {n} a plural text agrees with.
 */
export function reasonArgs(args, readerCtx) {
  const shown = {};
  for (const [key, value] of Object.entries(args || {})) {
    const seatKey = key === "seat" || key.endsWith("_seat");
    if (seatKey && Number.isInteger(value)) {
      shown[key] = value + 1;
      const nameKey = key === "seat" ? "name" : key.slice(0, -"_seat".length);
      if (!(nameKey in args)) shown[nameKey] = readerCtx.seatName(value);
    } else {
      shown[key] = Array.isArray(value) ? value.join(", ") : value;
    }
  }
  const counts = Object.entries(args || {}).filter(([key, value]) => typeof value === "number"
    && key !== "seat" && !key.endsWith("_seat"));
  if (counts.length === 1 && !("n" in shown)) shown.n = counts[0][1];
  return shown;
}

/**
 * Why a game ended, in words: the one helper for an outcome, live or replayed, made from its reason code
 * and arguments (docs/protocol.md §3.11) with the catalog's `reason.<code>` text. An outcome without a code
 * (a record from before codes) or with a code this client has no text for is read from its English words
 * (legacyOutcome); a coded outcome that still has no text shows the server's English reason.
 */
export function reasonWords(outcome, gameModule, readerCtx) {
  const given = typeof outcome === "string" ? { reason: outcome } : outcome || {};
  const read = given.code && has(`reason.${given.code}`) ? given : legacyOutcome(given.reason);
  if (read.code && has(`reason.${read.code}`)) return t(`reason.${read.code}`, reasonArgs(read.args, readerCtx));
  return given.code ? given.reason || "" : "";
}

// The English words the server writes for each ending (rules/reasons.py, games/*/reasons.py), read back for
// outcomes stored before reason codes existed.
const LEGACY_WORDS = [
  [/^seat (\d+) resigned$/, "resigned", ["seat"]],
  [/^claimed win: idle$/, "claimed_win", []],
  [/^claimed draw: idle$/, "claimed_draw", []],
  [/^a good ghost reached an exit$/, "reached", []],
  [/^a good ghost escaped$/, "escaped", []],
  [/^captured all four good ghosts$/, "good_captured", []],
  [/^captured all four bad ghosts$/, "bad_captured", []],
  [/^the (\d+)-move limit was reached$/, "ply_limit", ["max_plies"]],
  [/^seat (\d+) is the last holding cards$/, "round_loser", ["seat"]],
  [/^the round reached (\d+) turns$/, "turn_limit", ["turns"]],
  [/^seat (\d+) wins the match with (\d+) points$/, "match_won", ["seat", "points"]],
  [/^the match reached (\d+) rounds$/, "round_limit", ["rounds"]],
  [/^lowest penalty: (\d+)$/, "lowest_penalty", ["penalty"]],
  [/^all tied on (\d+)$/, "all_tied", ["penalty"]],
];

/** An outcome's code and arguments from its English words alone (null code: words of no known ending). */
export function legacyOutcome(reason) {
  for (const [pattern, code, names] of LEGACY_WORDS) {
    const match = pattern.exec(reason || "");
    if (match) return { reason, code, args: Object.fromEntries(names.map((name, i) => [name, Number(match[i + 1])])) };
  }
  return { reason, code: null, args: {} };
}

/** The steps of an action in words, one sentence per game event ("plays 8 8", "gambles: 7"). */
export function eventSentences(events, gameModule, readerCtx) {
  return (events || [])
    .map((event) => gameModule?.describeEvent?.(event, readerCtx))
    .filter(Boolean)
    .map(sentence);
}

/**
 * An action as the log says it: its events in words, else its text when the reader may know it, else
 * "X made a secret move." (`action` null: the action was not public and not the reader's own).
 */
export function actionWords(seat, action, events, gameModule, readerCtx) {
  const described = eventSentences(events, gameModule, readerCtx);
  if (described.length) return described.join(" ");
  const name = readerCtx.seatName(seat);
  return action ? t("log.action", { name, action }) : t("log.action_secret", { name });
}
