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
 * joined with commas.
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
  return shown;
}

/**
 * Why a game ended, in words: the one helper for an outcome, live or replayed. An outcome with a reason
 * code (`code`, `args`) reads the catalog's `reason.<code>` text when there is one; an older one (only
 * the English `reason`) is read by the patterns the server used to write: a claim, a resignation named by
 * who resigned, then the game's own REASONS and reasonText.
 */
export function reasonWords(outcome, gameModule, readerCtx) {
  if (outcome?.code && has(`reason.${outcome.code}`)) return t(`reason.${outcome.code}`, reasonArgs(outcome.args, readerCtx));
  const reason = outcome?.reason || "";
  const claimed = /^claimed (win|draw): idle$/.exec(reason);
  if (claimed) return t(`result.reason.claimed_${claimed[1]}`);
  const resigned = /^seat (\d+) resigned$/.exec(reason);
  if (resigned) return t("result.reason.resigned", { name: readerCtx.seatName(Number(resigned[1])) });
  const reasonKey = gameModule?.REASONS?.[reason];
  if (reasonKey) return t(reasonKey);
  return gameModule?.reasonText?.(reason, readerCtx) || "";
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
