// A finished game step by step, drawn by the same per-game renderer as the live table. The views come
// from the server already redacted for their reader (docs/protocol.md: a spectator's replay, or a seated
// player's own seat); this page only shows them. /replay/{id}?seat=N&move=M links to one move.

import { clear, h } from "./dom.js";
import { errorText } from "./errors.js";
import { onLanguageChange, t } from "./i18n.js";
import { api } from "./net.js";

const GAME_MODULES = {
  geister: () => import("./games/geister.js"),
  ghooost: () => import("./games/ghooost.js"),
  thelast: () => import("./games/thelast.js"),
};
const PLAY_STEP_MS = 700; // one move per this long while playing: slow enough to follow a capture

export async function replayPage(root, connection, recordId) {
  const params = new URLSearchParams(location.search);
  const seatParam = params.get("seat");
  const viewer = seatParam === null || seatParam === "" ? null : Number(seatParam);
  const status = h("p", { class: "replay-status", role: "status" }, t("table.loading"));
  root.append(h("div", { class: "replay-page" }, status));
  let replay;
  try {
    replay = await api(viewer === null ? `/records/${recordId}/replay` : `/records/${recordId}/replay/${viewer}`);
  } catch (error) {
    status.textContent = errorText(error);
    status.classList.add("form-error");
    return;
  }
  const steps = replay.steps;
  const last = steps.length - 1;
  let index = Math.max(0, Math.min(last, Number(params.get("move") ?? 0) || 0));
  let timer = null;

  const seatName = (seat) => {
    if (seat === "ghost") return t("thelast.ghost");
    const name = replay.names?.[seat];
    // a bot's label ("hard bot", "easy bot 3"; no person may take such a name) in the reader's language
    const bot = /^(\S+) bot( \d+)?$/.exec(name ?? "");
    if (bot) {
      const level = t(`bot.${bot[1]}`);
      return bot[2] ? t("seat.bot", { seat: Number(seat) + 1, level }) : t("rating.bot", { level });
    }
    return name ?? t("seat.number", { seat: Number(seat) + 1 });
  };
  const module = await GAME_MODULES[replay.game]();
  // The replay never acts: the renderer's clicks go nowhere, and its views carry no legal moves.
  const ctx = { t, act: () => {}, seatName, seat: () => viewer, table: () => null, command: () => {} };
  const renderer = module.createRenderer(ctx);

  const heading = h("h1", { class: "replay-title" });
  const whose = h("p", { class: "replay-viewer" });
  const position = h("span", { class: "replay-position", "aria-live": "polite" });
  const mover = h("p", { class: "replay-mover" });
  const slider = h("input", { type: "range", class: "replay-slider", min: 0, max: last, value: index,
    "aria-label": t("replay.slider"), oninput: () => go(Number(slider.value)) });
  const button = (cls, key, onclick) => h("button", { type: "button", class: cls, title: t(key), "aria-label": t(key), onclick }, t(key));
  const first = button("replay-first", "replay.first", () => go(0));
  const prev = button("replay-prev", "replay.prev", () => go(index - 1));
  const play = button("replay-play", "replay.play", () => (timer ? pause() : start()));
  const next = button("replay-next", "replay.next", () => go(index + 1));
  const end = button("replay-last", "replay.last", () => go(last));
  const copy = h("button", { type: "button", class: "replay-link", onclick: () => copyLink() }, t("replay.copy_link"));
  const controls = h("div", { class: "replay-controls", role: "toolbar", "aria-label": t("replay.controls") },
    first, prev, play, next, end, slider, position, copy);
  const players = h("p", { class: "replay-players" });
  clear(root);
  root.append(h("div", { class: "replay-page" }, heading, whose, players, controls, mover,
    h("div", { class: "game-area" }, renderer.element), h("p", { class: "replay-keys" }, t("replay.keys"))));

  function moveLink() {
    const query = new URLSearchParams();
    if (viewer !== null) query.set("seat", String(viewer));
    query.set("move", String(index));
    return `${location.origin}/replay/${recordId}?${query}`;
  }

  function copyLink() {
    const link = moveLink();
    const done = () => {
      copy.textContent = t("ui.copied");
      setTimeout(() => (copy.textContent = t("replay.copy_link")), 1500);
    };
    if (navigator.clipboard) navigator.clipboard.writeText(link).then(done, () => window.prompt(t("replay.copy_link"), link));
    else window.prompt(t("replay.copy_link"), link);
  }

  function drawText() {
    heading.textContent = t("replay.title", { id: replay.id, game: t(`game.${replay.game}`) });
    whose.textContent = viewer === null ? t("replay.spectator") : t("replay.seat_view", { seat: viewer + 1, name: seatName(viewer) });
    players.textContent = replay.names.map((name, seat) => `${seat + 1}. ${seatName(seat)}`).join("  ·  ");
    position.textContent = index === 0 ? t("replay.start", { total: last }) : t("replay.move", { n: index, total: last });
    const acting = steps[index].seat;
    mover.textContent = acting === null || acting === undefined ? "" : t("replay.moved", { name: seatName(acting) });
    play.textContent = t(timer ? "replay.pause" : "replay.play");
  }

  function draw() {
    const view = { ...steps[index].view, legal: [] };
    renderer.update(view);
    slider.value = String(index);
    first.disabled = prev.disabled = index === 0;
    next.disabled = end.disabled = index === last;
    document.body.dataset.replayMove = String(index);
    document.body.dataset.replayLast = String(last);
    drawText();
  }

  function go(to) {
    const wanted = Math.max(0, Math.min(last, to));
    if (wanted === index && renderer.element.isConnected && document.body.dataset.replayMove === String(index)) return;
    index = wanted;
    history.replaceState(null, "", moveLink().slice(location.origin.length));
    draw();
    if (index === last) pause();
  }

  function start() {
    if (index === last) go(0);
    timer = setInterval(() => go(index + 1), PLAY_STEP_MS);
    drawText();
  }

  function pause() {
    clearInterval(timer);
    timer = null;
    drawText();
  }

  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
    if (event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLSelectElement) return;
    const moves = { ArrowLeft: () => go(index - 1), ArrowRight: () => go(index + 1), Home: () => go(0), End: () => go(last) };
    if (moves[event.key]) {
      event.preventDefault();
      pause();
      moves[event.key]();
    } else if (event.key === " " && !(event.target instanceof HTMLButtonElement)) {
      event.preventDefault();
      timer ? pause() : start();
    }
  });
  onLanguageChange(() => {
    renderer.redraw?.();
    // the controls speak the new language too, not only after a reload
    for (const [control, key] of [[first, "replay.first"], [prev, "replay.prev"], [next, "replay.next"], [end, "replay.last"]]) {
      control.textContent = control.title = t(key);
      control.setAttribute("aria-label", t(key));
    }
    play.title = t("replay.play");
    play.setAttribute("aria-label", t("replay.play"));
    slider.setAttribute("aria-label", t("replay.slider"));
    copy.textContent = t("replay.copy_link");
    controls.setAttribute("aria-label", t("replay.controls"));
    drawText();
  });
  draw();
}
