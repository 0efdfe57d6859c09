// Quick play, shown in each game tile of the lobby: "Find an opponent" waits in that game's queue
// (docs/protocol.md, /api/quick) until the server seats us with someone of close rating, then goes to that
// table. After a while the server offers a bot of our strength instead. The page asks about once a
// second; the queue forgets a page that stopped asking. One wait at a time (a new one replaces the old).
// The tab remembers its wait (sessionStorage), so a reload picks it up again instead of dropping it.

import { h } from "./dom.js";
import { errorText } from "./errors.js";
import { t } from "./i18n.js";
import { api, session } from "./net.js";

const ASK_EVERY_MS = 1000;
const KEPT = "ghostgames.quickWait"; // the game this tab waits for, across a reload

/** The one quick-play wait of this page; `onChange` redraws the tiles' status lines. */
export function quickPlay(onChange) {
  const state = { game: null, waited: 0, bot: null, note: null, noteGame: null };
  let timer = null;

  const changed = () => onChange(state);

  function stop() {
    clearInterval(timer);
    timer = null;
    state.game = null;
    state.bot = null;
    sessionStorage.removeItem(KEPT);
  }

  function failed(game, error) {
    stop();
    state.note = errorText(error);
    state.noteGame = game;
    changed();
  }

  function show(answer) {
    if (answer.status === "seated") {
      const game = state.game ?? answer.game;
      stop();
      state.note = t("quick.found");
      state.noteGame = game;
      changed();
      location.href = `/table/${encodeURIComponent(answer.table)}`;
      return;
    }
    if (answer.status !== "waiting") {
      stop();
      changed();
      return;
    }
    state.game = answer.game;
    sessionStorage.setItem(KEPT, answer.game);
    state.waited = Math.round(answer.waited);
    state.bot = answer.bot ?? null;
    state.note = null;
    timer ||= setInterval(ask, ASK_EVERY_MS);
    changed();
  }

  async function call(game, path, method) {
    try {
      show(await api(path, { method }));
    } catch (error) {
      failed(game, error);
    }
  }

  function ask() {
    if (state.game) call(state.game, "/quick", "GET");
  }

  return {
    state,
    /** After a reload: go on with this tab's wait (or go to the table it found meanwhile). */
    resume() {
      const game = sessionStorage.getItem(KEPT);
      if (game && session.token) call(game, "/quick", "GET");
    },
    join(game) {
      if (!session.token) {
        state.note = t("quick.need_name");
        state.noteGame = game;
        changed();
        return;
      }
      call(game, `/quick/${game}`, "POST");
    },
    takeBot() {
      if (state.game) call(state.game, `/quick/${state.game}/bot`, "POST");
    },
    async leave() {
      stop();
      state.note = null;
      changed();
      await api("/quick", { method: "DELETE" }).catch(() => {});
    },
  };
}

/** A tile's quick-play line: while waiting for this game, for how long, "Stop waiting" and, once the
 * server offers it, a bot of my strength; otherwise a note (a refusal, "Choose a name first") or nothing.
 * Built once and updated in place, so the focus stays on its buttons while the seconds count. `title()`
 * names the game in the page's language. */
export function quickStatusLine(game, quick, title = () => t(`game.${game}`)) {
  const status = h("span", { class: "quick-status", role: "status" });
  const cancel = h("button", { type: "button", class: "quick-cancel", onclick: () => quick.leave() });
  const bot = h("button", { type: "button", class: "quick-bot primary", onclick: () => quick.takeBot() });
  const line = h("div", { class: "quick-line", dataset: { game } }, status, h("span", { class: "quick-actions" }, cancel, bot));
  let shown = ""; // what the line last offered: the wait, then the bot
  line.update = () => {
    const { state } = quick;
    const waiting = state.game === game;
    // The wait and the bot offer appear in the screen, not below its fold (issue 32 point 21).
    const offer = waiting ? (state.bot ? "bot" : "wait") : "";
    if (offer && offer !== shown && line.isConnected) requestAnimationFrame(() => line.scrollIntoView({ block: "nearest" }));
    shown = offer;
    line.classList.toggle("waiting", waiting);
    status.textContent = waiting
      ? t("quick.waiting", { game: title(), seconds: state.waited })
      : state.noteGame === game && state.note ? state.note : "";
    cancel.hidden = !waiting;
    cancel.textContent = t("quick.cancel");
    bot.hidden = !waiting || !state.bot;
    bot.textContent = state.bot ? t("quick.bot_mine", { level: t(`bot.${state.bot}`) }) : "";
  };
  line.update();
  return line;
}
