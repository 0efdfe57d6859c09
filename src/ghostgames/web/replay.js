// A finished game step by step, drawn by the same per-game renderer as the live table. The views come
// from the server already redacted for their reader (docs/protocol.md: a spectator's replay, or a seated
// player's own seat); this page only shows them. /replay/{id}?seat=N&move=M links to one move.
//
// The server sends a replay in pages (`?from=`): a page's first step has its whole view and each later
// step only what changed (`delta`: `set` keys, lists that `append`ed, keys to `drop`). This page fetches
// the pages it needs as the reader moves and rebuilds a step's view from its page's first view.
//
// A replay only shows: the renderers get `readOnly` and draw every position without a control (no setup
// tray, no move, no hand to pick from). Each step's caption and its entry in the move list are the live
// log's words for that action (words.js), from the events the server sends with the step as this reader
// saw them; the last step says who won and why, from the record's outcome.
//
// Under the board, the game's analysis from the same reader's knowledge (analysis.js): a graph, each
// move's verdict in the move list and the better move drawn by the renderer (`ctx.better()`).
// `&analyse=1` (the end panel's "Analyse this game") asks for the analysis at once when there is none.

import { createAnalysis } from "./analysis.js";
import { clear, h } from "./dom.js";
import { errorText } from "./errors.js";
import { loadGameModule } from "./game_module.js";
import { onLanguageChange, t } from "./i18n.js";
import { api } from "./net.js";
import { actionWords, reasonWords, sentence } from "./words.js";

const PLAY_STEP_MS = 700; // one move per this long while playing: slow enough to follow a capture
const PREFETCH = 50; // this close to a page's end, the next page is fetched ahead

/** The next view: `view` (left as it is) changed by one step's delta. */
export function applyDelta(view, delta) {
  const next = { ...view, ...(delta.set || {}) };
  for (const [key, items] of Object.entries(delta.append || {})) next[key] = next[key].concat(items);
  for (const key of delta.drop || []) delete next[key];
  return next;
}

/** The pages of one replay, fetched once each, and the view of any step rebuilt from its page. */
class ReplayPages {
  constructor(path, first) {
    this.path = path;
    this.total = first.total;
    this.size = first.page;
    this.pages = new Map([[first.from, first]]);
    this.loading = new Map();
    this.cursor = null; // the last view rebuilt: {step, view}, so the next step costs one delta
  }

  startOf(step) {
    return Math.floor(step / this.size) * this.size;
  }

  has(step) {
    return this.pages.has(this.startOf(step));
  }

  load(step) {
    const start = this.startOf(step);
    if (this.pages.has(start)) return Promise.resolve();
    if (!this.loading.has(start)) {
      const request = api(`${this.path}?from=${start}`)
        .then((page) => this.pages.set(start, page))
        .finally(() => this.loading.delete(start));
      this.loading.set(start, request);
    }
    return this.loading.get(start);
  }

  step(step) {
    const page = this.pages.get(this.startOf(step));
    return page.steps[step - page.from];
  }

  view(step) {
    const page = this.pages.get(this.startOf(step));
    let { cursor } = this;
    if (!cursor || cursor.step > step || cursor.step < page.from) cursor = { step: page.from, view: page.steps[0].view };
    let { view } = cursor;
    for (let at = cursor.step + 1; at <= step; at += 1) view = applyDelta(view, page.steps[at - page.from].delta);
    this.cursor = { step, view };
    return view;
  }
}

export async function replayPage(root, connection, recordId) {
  const params = new URLSearchParams(location.search);
  const seatParam = params.get("seat");
  const viewer = seatParam === null || seatParam === "" ? null : Number(seatParam);
  const status = h("p", { class: "replay-status", role: "status" }, t("table.loading"));
  root.append(h("div", { class: "replay-page" }, status));
  const path = viewer === null ? `/records/${recordId}/replay` : `/records/${recordId}/replay/${viewer}`;
  let replay;
  let pages;
  let index;
  try {
    replay = await api(`${path}?from=0`);
    pages = new ReplayPages(path, replay);
    index = Math.max(0, Math.min(pages.total - 1, Number(params.get("move") ?? 0) || 0));
    await pages.load(index);
  } catch (error) {
    status.textContent = errorText(error);
    status.classList.add("form-error");
    return;
  }
  const last = pages.total - 1;
  let timer = null;
  let wanted = index; // the step the reader asked for last, while its page may still be on its way

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
  const module = await loadGameModule(replay.game);
  // The replay never acts: the renderer's clicks go nowhere, and its views carry no legal moves.
  // `better()`: the better move the analysis found for the move shown, which the renderer draws.
  const ctx = { t, act: () => {}, seatName, seat: () => viewer, table: () => null, command: () => {}, readOnly: true,
    better: () => analysis.betterAt(index) };
  const moveWords = (action) => module.moveWords?.(action, ctx) ?? action;
  const analysis = createAnalysis({ recordId, reader: viewer, moves: last, seatName, moveWords,
    go: (step) => {
      pause();
      go(step);
    },
    changed: () => {
      renderer.redraw?.();
      markVerdicts();
    } });
  const renderer = module.createRenderer(ctx);

  const heading = h("h1", { class: "replay-title" });
  const whose = h("p", { class: "replay-viewer" });
  const position = h("span", { class: "replay-position", "aria-live": "polite" });
  const mover = h("p", { class: "replay-mover" });
  const result = h("p", { class: "replay-result", hidden: true });
  const slider = h("input", { type: "range", class: "replay-slider", min: 0, max: last, value: index,
    "aria-label": t("replay.slider"), oninput: () => go(Number(slider.value)) });
  const button = (cls, key, onclick) => h("button", { type: "button", class: cls, title: t(key), "aria-label": t(key), onclick }, t(key));
  const first = button("replay-first", "replay.first", () => go(0));
  const prev = button("replay-prev", "replay.prev", () => go(wanted - 1));
  const play = button("replay-play", "replay.play", () => (timer ? pause() : start()));
  const next = button("replay-next", "replay.next", () => go(wanted + 1));
  const end = button("replay-last", "replay.last", () => go(last));
  const copy = h("button", { type: "button", class: "replay-link", onclick: () => copyLink() }, t("replay.copy_link"));
  const controls = h("div", { class: "replay-controls", role: "toolbar", "aria-label": t("replay.controls") },
    first, prev, play, next, end, slider, position, copy);
  // The players as the seats they sat in (not a ranking), each with their result.
  const playersTitle = h("h2", { id: "replay-players-title" });
  const players = h("ul", { class: "replay-players" });
  // Every move, numbered from 1, in the log's words once its page is here; the one shown is marked.
  const movesTitle = h("h2", { id: "replay-moves-title" });
  const moveButtons = [];
  const moveList = h("ol", { class: "replay-moves" });
  for (let step = 1; step <= last; step += 1) {
    const entry = h("button", { type: "button", class: "replay-move", dataset: { step },
      onclick: () => {
        pause();
        go(step);
      } }, h("span", { class: "move-no" }, `${step}.`), " ", h("span", { class: "move-words" }), h("span", { class: "move-verdict" }));
    moveButtons[step] = entry;
    moveList.append(h("li", {}, entry));
  }
  const filled = new Set(); // the pages whose moves are in words in the list
  const keys = h("p", { class: "replay-keys" }, t("replay.keys"));
  clear(root);
  root.append(h("div", { class: "replay-page" }, heading, whose,
    h("section", { class: "replay-seats", "aria-labelledby": "replay-players-title" }, playersTitle, players),
    controls, mover, result,
    h("div", { class: "replay-body" },
      // the position scrolls inside itself when it is taller than the room left: the keyboard may scroll it
      h("div", { class: "replay-main" }, h("div", { class: "game-area", tabindex: 0, role: "region", "aria-label": t("replay.position") },
        renderer.element), analysis.element),
      h("nav", { class: "replay-move-list", "aria-labelledby": "replay-moves-title" }, movesTitle, moveList)),
    keys));

  /** A step's action in the live log's words; the server's events are already as this reader saw them. */
  function stepWords(step) {
    const info = pages.step(step);
    if (info.seat === null || info.seat === undefined) return "";
    if (!("events" in info)) return t("replay.moved", { name: seatName(info.seat) }); // a page from before events
    return actionWords(info.seat, info.action, info.events, module, ctx);
  }

  /** The end of the game in the log's words: who won (or a draw) and why. */
  function resultWords() {
    const outcome = replay.outcome;
    if (!outcome) return "";
    const reason = sentence(reasonWords(outcome, module, ctx));
    const winners = outcome.results.map((r, seat) => (r.result === "win" ? seatName(seat) : null)).filter(Boolean);
    return winners.length ? t("log.finished", { winners: winners.join(", "), reason }) : t("log.finished_draw", { reason });
  }

  /** The words of every move of the pages fetched so far (`all`: again, as after a change of language). */
  function fillMoves(all = false) {
    if (all) filled.clear();
    for (const start of pages.pages.keys()) {
      if (filled.has(start)) continue;
      filled.add(start);
      const end = Math.min(last, start + pages.size - 1);
      for (let step = Math.max(1, start); step <= end; step += 1) {
        moveButtons[step].querySelector(".move-words").textContent = stepWords(step);
        unseen?.unobserve(moveButtons[step].parentElement);
      }
    }
  }

  // Moves of a page not fetched yet get their words when the reader scrolls the list to them: that page
  // is fetched then (one request per page, as for stepping there).
  let unseen = null;
  function watchUnfetched() {
    if (!("IntersectionObserver" in window)) return;
    unseen = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const step = Number(entry.target.firstChild.dataset.step);
        if (entry.isIntersecting && !pages.has(step)) pages.load(step).then(() => fillMoves(), () => {});
      }
    }, { root: moveList });
    for (let step = 1; step <= last; step += 1) if (!pages.has(step)) unseen.observe(moveButtons[step].parentElement);
  }

  /** Each judged move's verdict beside its words in the list (a symbol and a word, not a colour). */
  function markVerdicts() {
    for (let step = 1; step <= last; step += 1) {
      const decision = analysis.decisionAt(step);
      const slot = moveButtons[step].querySelector(".move-verdict");
      clear(slot);
      moveButtons[step].classList.toggle("judged", Boolean(decision));
      if (decision) slot.append(" ", ...analysis.verdicts(decision).map(analysis.verdictChip));
    }
  }

  /** Mark the move shown and keep it in sight inside the list (the page itself does not scroll). */
  function markMove() {
    moveList.querySelector("[aria-current]")?.removeAttribute("aria-current");
    const current = moveButtons[index];
    if (!current) {
      moveList.scrollTop = 0;
      return;
    }
    current.setAttribute("aria-current", "step");
    const item = current.parentElement;
    const top = item.offsetTop; // the list is the item's offset parent (position: relative)
    if (top < moveList.scrollTop) moveList.scrollTop = top;
    else if (top + item.offsetHeight > moveList.scrollTop + moveList.clientHeight) {
      moveList.scrollTop = top + item.offsetHeight - moveList.clientHeight;
    }
  }

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
    playersTitle.textContent = t("replay.players");
    movesTitle.textContent = t("replay.moves");
    clear(players).append(...replay.names.map((name, seat) => {
      const outcome = replay.outcome?.results?.[seat];
      return h("li", { class: outcome ? `result-${outcome.result}` : null, dataset: { seat } }, outcome
        ? t("replay.player", { seat: seat + 1, name: seatName(seat), result: t(`result.word.${outcome.result}`) })
        : t("replay.player_plain", { seat: seat + 1, name: seatName(seat) }));
    }));
    position.textContent = index === 0 ? t("replay.start", { total: last }) : t("replay.move", { n: index, total: last });
    mover.textContent = stepWords(index);
    const end = index === last ? resultWords() : "";
    result.textContent = end;
    result.hidden = !end;
    play.textContent = t(timer ? "replay.pause" : "replay.play");
  }

  function draw() {
    const view = { ...pages.view(index), legal: [] };
    renderer.update(view);
    slider.value = String(index);
    first.disabled = prev.disabled = index === 0;
    next.disabled = end.disabled = index === last;
    document.body.dataset.replayMove = String(index);
    document.body.dataset.replayLast = String(last);
    drawText();
    fillMoves();
    markMove();
    analysis.show(index);
    const ahead = pages.startOf(index) + pages.size;
    if (ahead <= last && ahead - index <= PREFETCH) pages.load(ahead).then(() => fillMoves(), () => {}); // fetched again when needed
  }

  async function go(to) {
    wanted = Math.max(0, Math.min(last, to));
    const step = wanted;
    if (step === index && renderer.element.isConnected && document.body.dataset.replayMove === String(index)) return;
    if (!pages.has(step)) {
      mover.textContent = t("table.loading");
      try {
        await pages.load(step);
      } catch (error) {
        pause();
        if (wanted === step) wanted = index; // the buttons go on from the step shown
        mover.textContent = errorText(error);
        return;
      }
      if (wanted !== step) return; // the reader moved on while the page came
    }
    index = step;
    history.replaceState(null, "", moveLink().slice(location.origin.length));
    draw();
    if (index === last) pause();
  }

  function start() {
    if (index === last) go(0);
    // a step whose page is still on its way is waited for, not skipped
    timer = setInterval(() => pages.has(wanted) && go(wanted + 1), PLAY_STEP_MS);
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
    const moves = { ArrowLeft: () => go(wanted - 1), ArrowRight: () => go(wanted + 1), Home: () => go(0), End: () => go(last) };
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
    keys.textContent = t("replay.keys");
    controls.setAttribute("aria-label", t("replay.controls"));
    drawText();
    fillMoves(true);
    analysis.redraw();
    markVerdicts();
  });
  draw();
  watchUnfetched();
  analysis.load(params.get("analyse") === "1");
}
