// "Play now": wait in one game's quick-play queue (docs/protocol.md, /api/quick) until the server seats
// us with someone of close rating, then go to that table. After a while the server offers a bot of our
// strength instead. The page asks about once a second; the queue forgets a page that stopped asking.

import { clear, h } from "./dom.js";
import { errorText } from "./errors.js";
import { onLanguageChange, t } from "./i18n.js";
import { api, session } from "./net.js";

const GAMES = ["geister", "ghooost", "thelast"];
const ASK_EVERY_MS = 1000;

export function quickPlayBox() {
  const status = h("p", { class: "quick-status", role: "status" });
  const offer = h("div", { class: "quick-offer" });
  const cancel = h("button", { type: "button", class: "quick-cancel", hidden: true, onclick: () => leave() }, t("quick.cancel"));
  const buttons = GAMES.map((game) => h("button", { type: "button", class: "quick-play primary", dataset: { game },
    onclick: () => join(game) }, t("quick.play", { game: t(`game.${game}`) })));
  const title = h("h2", {}, t("quick.title"));
  const blurb = h("p", { class: "muted" }, t("quick.blurb"));
  let timer = null;
  let waiting = null; // the game we wait for

  function failed(error) {
    stop();
    status.textContent = errorText(error);
  }

  async function join(game) {
    if (!session.token) {
      status.textContent = t("quick.need_name");
      return;
    }
    try {
      show(await api(`/quick/${game}`, { method: "POST" }));
    } catch (error) {
      failed(error);
    }
  }

  async function ask() {
    try {
      show(await api("/quick"));
    } catch (error) {
      failed(error);
    }
  }

  async function takeBot() {
    try {
      show(await api(`/quick/${waiting}/bot`, { method: "POST" }));
    } catch (error) {
      failed(error);
    }
  }

  async function leave() {
    stop();
    status.textContent = "";
    await api("/quick", { method: "DELETE" }).catch(() => {});
  }

  function stop() {
    clearInterval(timer);
    timer = null;
    waiting = null;
    cancel.hidden = true;
    clear(offer);
  }

  function show(answer) {
    if (answer.status === "seated") {
      stop();
      status.textContent = t("quick.found");
      location.href = `/table/${encodeURIComponent(answer.table)}`;
      return;
    }
    if (answer.status !== "waiting") {
      stop();
      return;
    }
    waiting = answer.game;
    status.textContent = t("quick.waiting", { game: t(`game.${answer.game}`), seconds: Math.round(answer.waited) });
    cancel.hidden = false;
    clear(offer);
    if (answer.bot) {
      offer.append(h("button", { type: "button", class: "quick-bot", onclick: () => takeBot() },
        t("quick.bot", { level: t(`bot.${answer.bot}`) })));
    }
    timer ||= setInterval(ask, ASK_EVERY_MS);
  }

  onLanguageChange(() => {
    title.textContent = t("quick.title");
    blurb.textContent = t("quick.blurb");
    cancel.textContent = t("quick.cancel");
    buttons.forEach((button) => (button.textContent = t("quick.play", { game: t(`game.${button.dataset.game}`) })));
  });
  return h("section", { class: "card quick-card" }, title, blurb, h("div", { class: "quick-buttons" }, buttons),
    status, offer, cancel);
}
