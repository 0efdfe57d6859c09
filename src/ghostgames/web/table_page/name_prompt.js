// Someone without a name yet watches the table: a small form offers one, so they can sit down.

import { clear, h } from "../dom.js";
import { t } from "../i18n.js";
import { identityForm } from "../identity.js";

export function createNamePrompt(state, connection) {
  const element = h("div", { class: "identity-slot" });
  let shown = null;

  /** `force`: draw again even when nothing changed (a new language); otherwise keep what someone types. */
  function draw(force = false) {
    const wanted = !connection.user && connection.ready && !state.closed() && !state.noTable;
    if (!force && wanted === shown) return;
    shown = wanted;
    clear(element);
    if (wanted) {
      element.append(h("div", { class: "card" }, h("p", {}, t("table.need_name")), identityForm(connection, { compact: true })));
    }
  }

  return { element, draw };
}
