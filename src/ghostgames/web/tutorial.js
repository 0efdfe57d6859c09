// The tutorial page (/learn/{game} and /learn/{game}/{lesson}): one lesson at a time. Its position is drawn
// by the game's own renderer (games/<name>.js, as at a table) from the learner's view; beside it the
// instruction, the answer to every try, "Show me", "Next lesson" and the list of lessons. Every try goes to
// the server (POST /api/tutorial/{game}/{lesson}/try, docs/protocol.md §2.2), which judges it by the rules
// and the lesson: refused by a rule (said with rule.<code>), allowed but not the point (the lesson's hint),
// or done (the positions after it and after each reply, played out one at a time). The progress is kept in
// the browser and, for an account, on the server too (tutorial_progress.js).

import { reducedMotion } from "./animate.js";
import { clear, h } from "./dom.js";
import { errorText } from "./errors.js";
import { loadGameModule } from "./game_module.js";
import { has, onLanguageChange, t } from "./i18n.js";
import { identityForm } from "./identity.js";
import { api } from "./net.js";
import { markSolved, solved, syncWithAccount } from "./tutorial_progress.js";
import { actionWords, reasonWords, sentence } from "./words.js";

const STEP_MS = 700; // each reply stays this long before the next one, so a capture can be followed

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The learner acts only while trying: a finished lesson's position is a picture. */
function withoutMoves(view) {
  return { ...view, legal: [] };
}

export async function tutorialPage(root, connection, game, firstLesson) {
  const status = h("p", { class: "tutorial-status", role: "status" });
  clear(root).append(h("div", { class: "tutorial-page" }, status));
  let course;
  let module;
  try {
    const courses = (await api("/tutorial")).courses;
    course = courses.find((entry) => entry.game === game)?.lessons ?? [];
    module = course.length ? await loadGameModule(game) : null;
  } catch (error) {
    status.textContent = errorText(error);
    status.classList.add("form-error");
    return;
  }
  if (!course.length) {
    clear(root).append(h("div", { class: "tutorial-page" },
      h("h1", {}, t("tutorial.title", { game: t(`game.${game}`) })),
      h("p", {}, t("tutorial.none")),
      h("a", { class: "button", href: "/" }, t("table.to_lobby"))));
    return;
  }

  let lesson = null; // the lesson as the server sent it (GET /api/tutorial/{game}/{id})
  let phase = "trying"; // "trying" | "busy" (a try is on its way or playing out) | "done"
  let feedback = null; // {kind, lines: [() => text]}: redrawn in a new language
  let playing = false;
  let wantsName = false;

  const seatName = (seat) => {
    if (seat === lesson?.seat) return t("seat.you");
    return lesson?.players === 2 ? t("tutorial.opponent") : t("seat.number", { seat: Number(seat) + 1 });
  };
  const ctx = { t, act: (text) => attempt(text), seatName, seat: () => lesson?.seat ?? null, table: () => null,
    command: () => {} };
  const renderer = module.createRenderer(ctx);
  // A game that draws its own seat panels (SEAT_PANELS) gets them styled as the table's plates, each time
  // it draws them anew (as table_page/seats.js does at a table).
  const platePanels = () => {
    for (const panel of module.SEAT_PANELS ? renderer.element.querySelectorAll(module.SEAT_PANELS) : []) {
      const seat = Number(panel.dataset.seat ?? panel.dataset.who);
      if (!Number.isInteger(seat) || panel.classList.contains("plate")) continue; // The Last's ghost has no seat
      panel.classList.add("seat", "plate", seat === lesson?.seat ? "kind-human" : "kind-bot");
      panel.classList.toggle("me", seat === lesson?.seat);
    }
  };
  new MutationObserver(platePanels).observe(renderer.element, { childList: true, subtree: true });

  const heading = h("h1", { class: "tutorial-title" });
  const counter = h("p", { class: "tutorial-count" });
  const title = h("h2", { class: "lesson-title", id: "lesson-title" });
  const intro = h("p", { class: "lesson-intro" });
  const answer = h("div", { class: "tutorial-feedback", role: "status", "aria-live": "polite" });
  const buttons = h("div", { class: "tutorial-buttons" });
  const typed = h("input", { class: "tutorial-input", name: "action", autocomplete: "off", spellcheck: "false" });
  const typedLabel = h("span");
  const typedButton = h("button", { type: "submit" });
  const form = h("form", { class: "tutorial-type", onsubmit: (event) => {
    event.preventDefault();
    const text = typed.value.trim();
    if (text) attempt(text);
  } }, h("label", {}, typedLabel, " ", typed), typedButton);
  const lessonsSummary = h("summary");
  const lessonList = h("ol", { class: "tutorial-lessons" });
  const nav = h("details", { class: "tutorial-nav" }, lessonsSummary, h("nav", { "aria-labelledby": "tutorial-lessons-title" },
    h("h2", { class: "visually-hidden", id: "tutorial-lessons-title" }), lessonList));
  // On a phone the board comes between the instruction and the answer (tutorial.css), so both are near it.
  const panel = h("section", { class: "tutorial-lesson card", "aria-labelledby": "lesson-title" },
    h("div", { class: "lesson-text" }, counter, title, intro),
    h("div", { class: "lesson-controls" }, answer, buttons, form, nav));
  const board = h("div", { class: "game-area tutorial-board" }, renderer.element);
  clear(root).append(h("div", { class: `tutorial-page game-${game}` },
    h("header", { class: "tutorial-head" }, heading),
    h("div", { class: "tutorial-body" }, panel, board)));

  function draw() {
    const done = solved(game);
    heading.textContent = t("tutorial.title", { game: t(`game.${game}`) });
    document.title = `${t("tutorial.title", { game: t(`game.${game}`) })} — ghostgames`;
    counter.textContent = `${t("tutorial.lesson_of", { number: lesson.number, count: lesson.count })} · `
      + t("tutorial.progress", { done: course.filter((entry) => done.has(entry.id)).length, count: course.length });
    title.textContent = t(`${lesson.text}.title`);
    intro.textContent = t(`${lesson.text}.intro`);
    clear(answer);
    if (feedback) {
      answer.className = `tutorial-feedback feedback-${feedback.kind}`;
      answer.append(...feedback.lines.map((line, i) => h("p", { class: i ? null : "feedback-head" }, line())));
    } else {
      answer.className = "tutorial-feedback";
    }
    drawButtons();
    typedLabel.textContent = t("tutorial.type_label");
    typedButton.textContent = t("tutorial.type_button");
    typed.disabled = typedButton.disabled = phase !== "trying";
    lessonsSummary.textContent = t("tutorial.lessons");
    nav.querySelector("h2").textContent = t("tutorial.lessons");
    clear(lessonList).append(...course.map((entry) => h("li", {},
      h("a", { href: `/learn/${game}/${entry.id}`, "aria-current": entry.id === lesson.id ? "page" : null,
        onclick: (event) => {
          event.preventDefault();
          open(entry.id, true);
        } },
        `${entry.number}. ${t(`${entry.text}.title`)}`,
        done.has(entry.id) ? h("span", { class: "lesson-done" }, " ✓ ", h("span", { class: "visually-hidden" }, t("tutorial.lesson_done"))) : null))));
  }

  function drawButtons() {
    const last = !lesson.next;
    clear(buttons).append(...[
      phase === "trying" ? h("button", { type: "button", class: "show-me", onclick: showMe }, t("tutorial.show_me")) : null,
      phase !== "trying" || feedback ? h("button", { type: "button", class: "restart", disabled: phase === "busy",
        onclick: () => open(lesson.id, false) }, t("tutorial.restart")) : null,
      lesson.previous ? h("button", { type: "button", class: "previous", onclick: () => open(lesson.previous, true) }, t("tutorial.previous")) : null,
      lesson.next ? h("button", { type: "button", class: `next ${phase === "done" ? "primary" : ""}`,
        onclick: () => open(lesson.next, true) }, t("tutorial.next")) : null,
    ].filter(Boolean));
    if (phase === "done" && last) {
      buttons.append(h("div", { class: "tutorial-end" },
        h("p", {}, t("tutorial.finished", { game: t(`game.${game}`) })),
        h("button", { type: "button", class: "primary play-easy", onclick: (event) => playEasy(event.currentTarget) },
          t("tutorial.play_easy")),
        wantsName && !connection.user ? h("div", { class: "card" }, h("p", {}, t("tutorial.need_name")), identityForm(connection, { compact: true })) : null));
    }
  }

  async function open(id, push) {
    if (playing) return;
    phase = "busy";
    try {
      lesson = await api(`/tutorial/${game}/${encodeURIComponent(id)}`);
    } catch (error) {
      feedback = { kind: "refused", lines: [() => errorText(error)] };
      phase = "trying";
      if (lesson) draw();
      else status.textContent = errorText(error);
      return;
    }
    phase = "trying";
    feedback = null;
    typed.value = "";
    const path = `/learn/${game}/${lesson.id}`;
    if (push && location.pathname !== path) history.pushState({}, "", path);
    else if (location.pathname !== path) history.replaceState({}, "", path);
    renderer.update(lesson.view);
    draw();
  }

  /** A try by the renderer (a click or a drag) or the typed form. */
  async function attempt(text) {
    if (phase !== "trying") return;
    phase = "busy";
    draw();
    let reply;
    try {
      reply = await api(`/tutorial/${game}/${lesson.id}/try`, { method: "POST", body: { action: text } });
    } catch (error) {
      reply = { result: "error", error };
    }
    await judged(reply, false);
  }

  async function showMe() {
    if (phase !== "trying") return;
    phase = "busy";
    draw();
    let reply;
    try {
      reply = await api(`/tutorial/${game}/${lesson.id}/show`, { method: "POST" });
    } catch (error) {
      reply = { result: "error", error };
    }
    await judged(reply, true);
  }

  async function judged(reply, shown) {
    if (reply.result === "done") {
      await playOut(reply.steps);
      if (!shown) markSolved(game, lesson.id, connection);
      const moves = reply.steps.slice(1).map((step) => actionWords(step.seat, step.action, step.events, module, ctx));
      const outcome = reply.steps.at(-1).view.outcome;
      feedback = { kind: "done", lines: [
        () => t(shown ? "tutorial.shown" : "tutorial.well_done"),
        () => t(`${lesson.text}.done`),
        ...(moves.length ? [() => moves.join(" ")] : []),
        ...(outcome ? [() => sentence(reasonWords(outcome, module, ctx))] : []),
      ] };
      phase = "done";
      draw();
      (buttons.querySelector(".next") || buttons.querySelector(".play-easy"))?.focus({ preventScroll: true });
      return;
    }
    if (reply.result === "refused") {
      const args = Object.fromEntries(Object.entries(reply.args || {}).map(([name, value]) =>
        [name, Array.isArray(value) ? value.join(", ") : value]));
      const why = reply.code && has(`rule.${reply.code}`) ? t(`rule.${reply.code}`, args) : reply.message;
      feedback = { kind: "refused", lines: [() => t("tutorial.refused", { why }), ...(reply.hint ? [() => t(reply.hint)] : [])] };
    } else if (reply.result === "wrong") {
      feedback = { kind: "wrong", lines: [() => t("tutorial.wrong"), () => t(reply.hint)] };
    } else {
      feedback = { kind: "refused", lines: [() => errorText(reply.error)] };
    }
    phase = "trying";
    renderer.update(lesson.view); // the position as it was: nothing of a wrong try stays on the board
    draw();
  }

  /** The learner's action, then each reply, one position after the other. */
  async function playOut(steps) {
    playing = true;
    try {
      for (const [i, step] of steps.entries()) {
        if (i > 0 && !reducedMotion()) await sleep(STEP_MS);
        renderer.update(withoutMoves(step.view));
      }
    } finally {
      playing = false;
    }
  }

  /** "Play a real game against an easy bot": a new table with you in the first seat, as the lobby's Play now. */
  function playEasy(button) {
    if (!connection.user) {
      wantsName = true;
      draw();
      document.querySelector(".tutorial-end input")?.focus();
      return;
    }
    button.disabled = true;
    const options = connection.user.guest ? { rated: false } : {};
    connection.request({ type: "create", game, seats: 2, options, join: true }).then((ack) => {
      location.href = `/table/${encodeURIComponent(ack.table)}?bots=1&level=easy&start=1`;
    }, (error) => {
      button.disabled = false;
      feedback = { kind: "refused", lines: [() => errorText(error)] };
      draw();
    });
  }

  connection.onOpen(async () => {
    if (wantsName && connection.user && lesson) draw();
    if (await syncWithAccount(connection) && lesson) draw();
  });
  onLanguageChange(() => {
    if (!lesson) return;
    renderer.redraw();
    draw();
  });
  window.addEventListener("popstate", () => {
    const match = location.pathname.match(/^\/learn\/[^/]+\/([^/]+)\/?$/);
    if (match) open(decodeURIComponent(match[1]), false);
  });

  const done = solved(game);
  const start = course.find((entry) => entry.id === firstLesson) ? firstLesson
    : (course.find((entry) => !done.has(entry.id)) ?? course[0]).id;
  await open(start, false);
}
