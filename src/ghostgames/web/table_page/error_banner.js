// A refused command, said above the game in the reader's words; it goes by itself after a while (the
// chat keeps what lasts, see table.js reportError).

import { h } from "../dom.js";
import { errorText } from "../errors.js";

const SHOWN_MS = 12000;

export function createErrorBanner() {
  const element = h("div", { class: "error-banner", role: "alert", hidden: true });
  let timer = null;
  return {
    element,
    show(error) {
      element.hidden = false;
      element.textContent = errorText(error);
      clearTimeout(timer);
      timer = setTimeout(() => (element.hidden = true), SHOWN_MS);
    },
    hide() {
      element.hidden = true;
    },
  };
}
