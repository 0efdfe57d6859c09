// Server errors in the reader's language: translated by their stable code, placeholders from args.

import { has, t } from "./i18n.js";

function flat(value) {
  if (Array.isArray(value)) return value.join(", ");
  if (value === null || value === undefined) return "–";
  return String(value);
}

export function errorText(error) {
  const code = error?.code || "internal_error";
  const args = {};
  for (const [name, value] of Object.entries(error?.args || {})) args[name] = flat(value);
  if (has(`error.${code}`)) return t(`error.${code}`, args);
  return t("error.unknown", { code });
}
