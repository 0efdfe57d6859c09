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
 * Why a game ended, in the reader's words, made from the outcome's code and arguments (docs/protocol.md §3.11):
 * the text `reason.<code>`, given each argument by name, the seat's name as `name` for a `seat`, and the one
 * other number as the count `n` its plural agrees with. A code this client has no text for shows the English
 * `reason` the server sent. `outcome` is the outcome JSON ({reason, code, args}) or, from older callers and records, its
 * English `reason` alone (see legacyOutcome).
 */
export function reasonWords(outcome, gameModule, readerCtx) {
  const { reason, code, args } = typeof outcome === "string" || !outcome?.code ? legacyOutcome(outcome?.reason ?? outcome) : outcome;
  if (!code || !has(`reason.${code}`)) return reason || "";
  const words = { ...(args || {}) };
  if (typeof words.seat === "number") words.name = readerCtx.seatName(words.seat);
  const counts = Object.entries(args || {}).filter(([name, value]) => name !== "seat" && typeof value === "number");
  if (counts.length === 1) words.n = counts[0][1];
  return t(`reason.${code}`, words);
}

// The English words of the endings that name a seat or a count, as the server writes them (reasons.py), for
// callers that still pass the words alone (web/table.js until it passes the outcome; then this goes).
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
