// Geister in the browser: the 6x6 board drawn from view(seat), the secret setup, moves by drag or click.
// Seat 0 sits at rows 1-2 and seat 1 at rows 5-6; each player sees their own side at the bottom.

import { redrawAnimated } from "../animate.js";
import { h, redrawKeepingFocus, s } from "../dom.js";
import { draggable } from "../drag.js";

const FILES = "abcdef";
const STEP = { n: [0, 1], e: [1, 0], s: [0, -1], w: [-1, 0] };

function squareOf(name) {
  return [FILES.indexOf(name[0]), Number(name[1]) - 1];
}

function nameOf(col, row) {
  return `${FILES[col]}${row + 1}`;
}

function stepFrom(square, dir) {
  const [col, row] = squareOf(square);
  const [dc, dr] = STEP[dir];
  const c = col + dc;
  const r = row + dr;
  return c >= 0 && c < 6 && r >= 0 && r < 6 ? nameOf(c, r) : null;
}

/**
 * A ghost picture. colour: "good" | "bad" | null (unknown). Mine are pale with a mark on the back; the
 * enemy's are dark. The mark is a shape as well as a colour: a ring for good, a cross for bad.
 */
export function ghostSvg(colour, mine, size = 40) {
  const body = mine ? "ghost-body mine" : "ghost-body theirs";
  const svg = s(
    "svg",
    { viewBox: "0 0 40 40", width: size, height: size, class: `ghost ${colour || "unknown"}`, "aria-hidden": "true" },
    s("path", { class: body, d: "M7 35 V17 a13 13 0 0 1 26 0 V35 l-4.3 -3.5 l-4.4 3.5 l-4.3 -3.5 l-4.3 3.5 l-4.4 -3.5 z" }),
    s("circle", { cx: 15, cy: 16, r: 2.6, class: "ghost-eye" }),
    s("circle", { cx: 25, cy: 16, r: 2.6, class: "ghost-eye" }),
  );
  // Good and bad differ in shape too, not in colour alone: a halo and a ring, or horns and a cross.
  if (colour === "good") {
    svg.insertBefore(s("ellipse", { cx: 20, cy: 3.2, rx: 8, ry: 2.4, class: "mark-halo" }), svg.firstChild);
    svg.append(s("circle", { cx: 20, cy: 26, r: 5, class: "mark-good" }));
  } else if (colour === "bad") {
    svg.insertBefore(s("path", { d: "M9 12 L6 1 L15 7 Z M31 12 L34 1 L25 7 Z", class: "mark-horns" }), svg.firstChild);
    svg.append(s("path", { d: "M16 22 l8 8 M24 22 l-8 8", class: "mark-bad" }));
  }
  return svg;
}

export function createRenderer(ctx) {
  const { t, act } = ctx;
  let view = null;
  let selected = null; // square of the own ghost picked for a move, or a setup piece
  let placement = {}; // setup: start square -> "good" | "bad"
  let holding = null; // setup: the colour picked from the tray, waiting for a square
  let lastPhase = null;
  let slide = null; // the move to play out at the next paint: {from, to}

  const root = h("div", { class: "geister" });

  function colourWord(colour) {
    return t(colour === "good" ? "geister.good" : colour === "bad" ? "geister.bad" : "geister.unknown");
  }

  function legalMoves() {
    const out = [];
    for (const text of view.legal || []) {
      const [from, dir] = text.split(" ");
      if (from === "setup") continue;
      out.push({ text, from, dir, to: stepFrom(from, dir) });
    }
    return out;
  }

  function sendMove(move) {
    selected = null;
    act(move.text);
  }

  // A replay (ctx.readOnly) draws positions only: no setup tray, no moves, no drag, no clicks.
  const readOnly = Boolean(ctx.readOnly);

  // --- setup ------------------------------------------------------------------------------------
  function inSetup() {
    return !readOnly && view.phase === "setup" && view.seat !== null && view.seat !== undefined && !view.set_up[view.seat];
  }

  function trayLeft(colour) {
    return 4 - Object.values(placement).filter((c) => c === colour).length;
  }

  function placeOn(square, colour) {
    const previous = placement[square];
    if (previous === colour) return;
    if (trayLeft(colour) <= 0) {
      // All four of this colour are out: swap with one already placed elsewhere.
      const other = Object.keys(placement).find((sq) => placement[sq] === colour && sq !== square);
      if (previous) placement[other] = previous;
      else delete placement[other];
    }
    placement[square] = colour;
  }

  function randomSetup() {
    const squares = [...view.start_squares[view.seat]];
    placement = {};
    const shuffled = squares.map((sq) => [Math.random(), sq]).sort((a, b) => a[0] - b[0]).map((p) => p[1]);
    shuffled.forEach((sq, i) => (placement[sq] = i < 4 ? "good" : "bad"));
    holding = null;
    draw();
  }

  function setupDone() {
    return Object.keys(placement).length === 8;
  }

  function sendSetup() {
    const good = Object.keys(placement).filter((sq) => placement[sq] === "good").sort();
    // Send the setup in the words of the view's legal list: if the opponent's setup lands first, the
    // table's answer is stale_version, and the page resends only an action it finds in that list.
    const same = (text) => {
      const squares = text.split(" ").slice(1).sort();
      return squares.length === good.length && squares.every((sq, i) => sq === good[i]);
    };
    const legal = (view.legal || []).find((text) => text.startsWith("setup ") && same(text));
    act(legal ?? `setup ${good.join(" ")}`);
  }

  function squareClickSetup(square) {
    if (holding) {
      placeOn(square, holding);
      holding = null;
    } else if (selected && selected !== square && placement[selected]) {
      const a = placement[selected];
      const b = placement[square];
      placement[square] = a;
      if (b) placement[selected] = b;
      else delete placement[selected];
      selected = null;
    } else if (placement[square]) {
      selected = selected === square ? null : square;
    }
    draw();
  }

  function setupTray() {
    const tray = h("div", { class: "setup-tray", role: "group", "aria-label": t("geister.tray") });
    for (const colour of ["good", "bad"]) {
      const left = trayLeft(colour);
      const piece = h(
        "button",
        {
          class: `tray-piece ${holding === colour ? "selected" : ""}`,
          dataset: { colour },
          disabled: left === 0,
          "aria-pressed": holding === colour ? "true" : "false",
          title: t("geister.tray_piece", { colour: colourWord(colour) }),
          onclick: () => {
            holding = holding === colour ? null : colour;
            selected = null;
            draw();
          },
        },
        ghostSvg(colour, true, 44),
        h("span", { class: "count" }, `×${left}`),
        h("span", { class: "label" }, colourWord(colour)),
      );
      if (left > 0) {
        draggable(piece, {
          accepts: (target) => target.dataset.start === "mine",
          onDrop: (target) => {
            placeOn(target.dataset.square, colour);
            holding = null;
            draw();
          },
        });
      }
      tray.append(piece);
    }
    const ready = setupDone();
    tray.append(
      h("div", { class: "setup-buttons" },
        h("button", { class: "setup-random", onclick: randomSetup }, t("geister.random_setup")),
        h("button", { class: "setup-clear", onclick: () => { placement = {}; holding = null; selected = null; draw(); } },
          t("geister.clear_setup")),
        h("button", { class: "setup-ready primary", disabled: !ready, onclick: sendSetup }, t("geister.ready")),
      ),
      h("p", { class: "hint" }, t(ready ? "geister.setup_ready_hint" : "geister.setup_hint")),
    );
    return tray;
  }

  // --- the board ----------------------------------------------------------------------------------
  function draw() {
    if (!view) return;
    const active = document.activeElement;
    const fromTray = Boolean(active && root.contains(active) && active.closest(".setup-tray"));
    redrawAnimated(root, () => redrawKeepingFocus(root, paint));
    slide = null; // each move slides once, not again on a click that redraws
    if (fromTray && !root.querySelector(".setup-tray")) {
      // Ready was pressed and the setup taken: the tray is gone, so the keyboard goes on from the board
      // (my first ghost) rather than from the top of the page
      const square = root.querySelector(".board .square[data-owner=bottom]") || root.querySelector(".board .square");
      square?.focus({ preventScroll: true });
    }
  }

  function paint() {
    const seat = view.seat ?? null;
    const bottom = seat === 1 ? 1 : 0;
    const top = 1 - bottom;
    const setup = inSetup();
    const bySquare = {};
    for (const ghost of view.ghosts) if (ghost.status === "board") bySquare[ghost.square] = ghost;
    const moves = setup ? [] : legalMoves();
    const targets = new Map(moves.filter((m) => m.from === selected && m.to).map((m) => [m.to, m]));
    const movable = new Set(moves.map((m) => m.from));
    const last = (view.moves || []).at(-1);
    const lastFrom = last ? last.split(" ")[0] : null;
    const lastTo = last ? stepFrom(lastFrom, last.split(" ")[1]) : null;
    const myStart = new Set(setup ? view.start_squares[seat] : []);
    // the better move an analysis found for the move shown (a replay's ctx.better): its squares marked
    const better = readOnly ? ctx.better?.() : null;
    const [betterFrom, betterDir] = better && !better.startsWith("setup") ? better.split(" ") : [null, null];
    const betterTo = betterFrom ? stepFrom(betterFrom, betterDir) : null;
    const exitOwner = {};
    view.exits.forEach((list, owner) => list.forEach((sq) => (exitOwner[sq] = owner)));

    const grid = h("div", { class: "board", role: "group", "aria-label": t("geister.board") });
    const rows = bottom === 0 ? [5, 4, 3, 2, 1, 0] : [0, 1, 2, 3, 4, 5];
    const cols = bottom === 0 ? [0, 1, 2, 3, 4, 5] : [5, 4, 3, 2, 1, 0];
    for (const row of rows) {
      for (const col of cols) {
        const name = nameOf(col, row);
        const cell = h(readOnly ? "div" : "button", { class: `square ${(row + col) % 2 ? "" : "dark"}`, role: readOnly ? "img" : null,
          dataset: { square: name, animOrigin: `square:${name}` } });
        const labels = [name];
        if (name in exitOwner) {
          const owner = exitOwner[name];
          // A spectator has no exits of their own: both sides' exits look alike, each named by its seat.
          cell.classList.add("exit", seat === null ? `exit-seat-${owner}` : owner === bottom ? "exit-mine" : "exit-theirs");
          cell.append(
            s("svg", { class: "exit-arrow", viewBox: "0 0 20 20", "aria-hidden": "true" },
              s("path", { d: owner === bottom ? "M10 2 L17 10 H12 V18 H8 V10 H3 Z" : "M10 18 L17 10 H12 V2 H8 V10 H3 Z" })),
          );
          labels.push(t("geister.exit_of", { name: ctx.seatName(owner) }));
        }
        if (setup && myStart.has(name)) {
          cell.dataset.start = "mine";
          cell.dataset.drop = "1";
          cell.classList.add("start");
          const colour = placement[name];
          if (colour) {
            const piece = h("span", { class: "piece" }, ghostSvg(colour, true), h("span", { class: `ghost-tag ${colour}`, "aria-hidden": "true" }, colourWord(colour)));
            cell.append(piece);
            labels.push(t("geister.your_ghost", { colour: colourWord(colour) }));
            draggable(cell, {
              accepts: (target) => target.dataset.start === "mine",
              onDrop: (target) => {
                const other = target.dataset.square;
                const mine = placement[name];
                const theirs = placement[other];
                placement[other] = mine;
                if (theirs) placement[name] = theirs;
                else delete placement[name];
                selected = null;
                draw();
              },
            });
          } else {
            labels.push(t("geister.empty_start"));
          }
          if (selected === name) cell.classList.add("selected");
          cell.addEventListener("click", () => squareClickSetup(name));
        } else if (bySquare[name]) {
          const ghost = bySquare[name];
          const mine = ghost.owner === seat;
          cell.append(h("span", { class: "piece", dataset: { animFrom: slide?.to === name ? `square:${slide.from}` : undefined } },
            ghostSvg(ghost.colour, seat === null ? ghost.owner === 0 : mine),
            ghost.colour ? h("span", { class: `ghost-tag ${ghost.colour}`, "aria-hidden": "true" }, colourWord(ghost.colour)) : null));
          cell.dataset.owner = ghost.owner === bottom ? "bottom" : "top";
          labels.push(
            mine
              ? t("geister.your_ghost", { colour: colourWord(ghost.colour) })
              : ghost.colour
                ? t("geister.their_ghost_known", { name: ctx.seatName(ghost.owner), colour: colourWord(ghost.colour) })
                : t("geister.their_ghost", { name: ctx.seatName(ghost.owner) }),
          );
        }
        if (!setup && !readOnly) {
          if (movable.has(name)) {
            cell.classList.add("movable");
            draggable(cell, {
              onStart: () => {
                selected = name;
              },
              accepts: (target) => moves.some((m) => m.from === name && m.to === target.dataset.square),
              onDrop: (target) => {
                const move = moves.find((m) => m.from === name && m.to === target.dataset.square);
                if (move) sendMove(move);
              },
            });
          }
          if (selected === name) cell.classList.add("selected");
          if (targets.has(name)) {
            cell.classList.add("target");
            labels.push(t("geister.move_here"));
          }
          cell.dataset.drop = "1";
          cell.addEventListener("click", () => {
            if (targets.has(name)) sendMove(targets.get(name));
            else if (movable.has(name)) selected = selected === name ? null : name;
            else selected = null;
            draw();
          });
        }
        if (!setup && (name === lastFrom || name === lastTo)) cell.classList.add("last-move");
        if (name === betterFrom) {
          cell.classList.add("better-from");
          cell.append(h("span", { class: "better-arrow", "aria-hidden": "true" }, arrowFor(betterDir, bottom, !betterTo)));
          labels.push(t(betterTo ? "analysis.better_from" : "analysis.better_escape"));
        }
        if (name === betterTo) {
          cell.classList.add("better-to");
          labels.push(t("analysis.better_to"));
        }
        cell.setAttribute("aria-label", labels.join(", "));
        grid.append(cell);
      }
    }

    // A corner exit can be left two ways (a6 n, a6 w): the same escape, so one button.
    const escapes = moves.filter((m) => m.from === selected && !m.to).slice(0, 1);
    const side = (owner) => {
      const taken = view.captured[owner];
      const pics = [];
      for (let i = 0; i < taken.good; i++) pics.push(ghostSvg("good", owner === seat || (seat === null && owner === 0), 28));
      for (let i = 0; i < taken.bad; i++) pics.push(ghostSvg("bad", owner === seat || (seat === null && owner === 0), 28));
      return h("div", { class: `captured captured-${owner === bottom ? "bottom" : "top"}`, dataset: { owner } },
        h("h2", {}, t("geister.captured_from", { name: ctx.seatName(owner) })),
        h("div", { class: "captured-pics" }, pics.length ? pics : h("span", { class: "muted" }, "–")),
        h("p", { class: "captured-count" }, t("geister.captured_count", {
          good: t("geister.captured_good", { n: taken.good }), bad: t("geister.captured_bad", { n: taken.bad }) })),
      );
    };
    const files = cols.map((c) => h("span", {}, FILES[c]));
    const ranks = rows.map((r) => h("span", {}, String(r + 1)));
    root.append(
      h("div", { class: "geister-layout" },
        side(top),
        h("div", { class: "board-wrap" },
          h("div", { class: "ranks", "aria-hidden": "true" }, ranks),
          grid,
          h("div", { class: "files", "aria-hidden": "true" }, files)),
        side(bottom),
      ),
    );
    if (setup) root.append(setupTray());
    if (escapes.length) {
      root.append(h("div", { class: "escape-bar" },
        escapes.map((m) => h("button", { class: "escape primary", onclick: () => sendMove(m) }, t("geister.escape", { square: m.from })))));
    }
    if (!setup && !readOnly && view.phase === "setup" && seat !== null) {
      root.append(h("p", { class: "hint waiting-setup" }, t("geister.waiting_setup")));
    }
  }

  return {
    element: root,
    update(next) {
      if (next.phase === "setup" && lastPhase !== "setup") {
        placement = {}; // a new game (or a rematch): a fresh secret setup
        holding = null;
      }
      lastPhase = next.phase;
      const moved = (next.moves || []).length - (view?.moves || []).length;
      const last = (next.moves || []).at(-1);
      const to = last && view ? stepFrom(last.split(" ")[0], last.split(" ")[1]) : null;
      slide = moved === 1 && to ? { from: last.split(" ")[0], to } : null;
      view = next;
      if (selected && !(view.legal || []).some((text) => text.startsWith(`${selected} `)) && !inSetup()) selected = null;
      draw();
    },
    redraw: draw,
    /** For the end-of-game panel: what each side captured, and whether the hidden colours are shown now. */
    endDetails() {
      if (!view) return null;
      const hidden = view.ghosts.filter((ghost) => ghost.status === "board" && ghost.owner !== view.seat);
      const shown = hidden.length > 0 && hidden.every((ghost) => ghost.colour);
      return h("div", { class: "end-details" },
        h("ul", { class: "end-captured" }, [0, 1].map((owner) => h("li", {},
          t("geister.end_captured", { name: ctx.seatName(1 - owner),
            good: t("geister.captured_good", { n: view.captured[owner].good }),
            bad: t("geister.captured_bad", { n: view.captured[owner].bad }) })))),
        hidden.length ? h("p", { class: `end-colours ${shown ? "shown" : "hidden"}` },
          t(shown ? "geister.end_colours_shown" : "geister.end_colours_hidden")) : null);
    },
    /** Command words for chat completion. */
    commands: ["setup", "move"],
  };
}

/** The arrow of a better move as the reader sees the board (seat 1 sees it turned round); ⇧ leaves it. */
function arrowFor(dir, bottom, leaves) {
  const seen = bottom === 0 ? dir : { n: "s", s: "n", e: "w", w: "e" }[dir];
  return (leaves ? { n: "⇧", s: "⇩", e: "⇨", w: "⇦" } : { n: "↑", s: "↓", e: "→", w: "←" })[seen];
}

/** A move in a few words, for the analysis ("b2 → b3", "b2 → exit"). */
export function moveWords(action, ctx) {
  const [from, dir] = action.split(" ");
  if (from === "setup") return ctx.t("geister.setup_short", { squares: action.split(" ").slice(1).join(" ") });
  const to = stepFrom(from, dir);
  return to ? ctx.t("geister.move_short", { from, to }) : ctx.t("geister.escape_short", { from });
}

/** Words for a game event in the log (the server's public event data). */
export function describeEvent(event, ctx) {
  const { t } = ctx;
  const data = event.data || event;
  switch (event.kind || event.type) {
    case "setup":
      return t("geister.log.setup", { name: ctx.seatName(data.seat) });
    case "start":
      return t("geister.log.start", { name: ctx.seatName(data.first) });
    case "move": {
      const [from, dir] = String(data.move).split(" ");
      const to = stepFrom(from, dir);
      let text = to
        ? t("geister.log.move", { name: ctx.seatName(data.seat), from, to })
        : t("geister.log.escape", { name: ctx.seatName(data.seat), from });
      if (data.colour) text += ` ${t("geister.log.capture", { colour: t(`geister.${data.colour}`) })}`;
      return text;
    }
    default:
      return null;
  }
}

export function turnPrompt(view) {
  return view?.phase === "setup" ? "geister.prompt_setup" : "table.your_turn";
}

/** A seat's plate: its ghosts still on the board. */
export function seatCounts(view, seat, t) {
  const onBoard = (view.ghosts || []).filter((ghost) => ghost.owner === seat && ghost.status === "board").length;
  return [["ghosts", t("plate.ghosts", { n: onBoard })]];
}

/** While I place my ghosts the page needs room for the setup controls (layout.css .phase-setup). */
export function layoutClass(view, seat) {
  return view?.phase === "setup" && !view.set_up?.[seat] ? "phase-setup" : "";
}
