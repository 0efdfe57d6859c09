// Server errors in the reader's language: translated by their stable code, placeholders from args.

import { has, t } from "./i18n.js";

// Error args that hold seat indexes (from 0, as everywhere on the wire); people read seats from 1.
const SEAT_ARGS = ["seat", "seats"];

function flat(value) {
  if (Array.isArray(value)) return value.join(", ");
  if (value === null || value === undefined) return "–";
  return String(value);
}

function seatNumbers(value) {
  if (Array.isArray(value)) return value.map(seatNumbers);
  return typeof value === "number" ? value + 1 : value;
}

/** The translation key for an error: some codes read better with a variant that fits their args. */
function keyOf(code, args) {
  // An option that takes a seat says which seats (first takes a seat from 1 to 2, or none for random).
  if (code === "bad_option" && "last" in args) return "error.bad_option_seat";
  // Not a typed command (a form's field): no usage to show, the server's reason is the message.
  if (code === "bad_argument" && !args.usage) return "error.bad_argument_plain";
  // A refused claim says why: the table has a clock, it is your turn, nobody is to move, or not yet.
  if (code === "cannot_claim" && has(`error.cannot_claim_${args.reason}`)) return `error.cannot_claim_${args.reason}`;
  return `error.${code}`;
}

export function errorText(error) {
  const code = error?.code || "internal_error";
  const args = {};
  for (const [name, value] of Object.entries(error?.args || {})) {
    args[name] = flat(SEAT_ARGS.includes(name) ? seatNumbers(value) : value);
  }
  // the server's own words when there is no usage to show ("an empty message")
  if (code === "bad_argument" && !args.usage) args.reason = error?.message || args.reason;
  // A refused move says why and what would work: the rule in the reader's words, else the server's.
  if (code === "illegal_action") {
    const rule = error?.args?.rule;
    const details = {};
    for (const [name, value] of Object.entries(error?.args?.details || {})) details[name] = flat(value);
    const why = rule && has(`rule.${rule}`) ? t(`rule.${rule}`, details) : error?.args?.reason;
    if (why) return t("error.illegal_action_why", { action: args.action ?? "–", why });
  }
  const key = keyOf(code, error?.args || {});
  if (has(key)) return t(key, args);
  return t("error.unknown", { code });
}
