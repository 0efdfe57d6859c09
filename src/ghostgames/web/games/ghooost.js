// Ghooost! in the browser, drawn from view(seat): your hand (pick identical cards, Miss Copy with them,
// Kitty alone), the cemetery with its top value and Kitty beside it, crypt and discard, every mansion,
// the direction, midnight, who is out, the match scores and Bouh! tokens. An extra turn that may be declined
// (option replay "may", after a double or triple) is flagged in the banner and offers an "End turn" button.

import { flyAway, redrawAnimated } from "../animate.js";
import { h, redrawKeepingFocus, s } from "../dom.js";
import { draggable } from "../drag.js";

const ORDER = (text) => (text === "K" ? 15 : text === "X" ? 16 : Number(text));

function sameCards(a, b) {
  return a.length === b.length && [...a].sort().join(" ") === [...b].sort().join(" ");
}

/** A card face: the value in two corners and a ghost; Kitty a cat, Miss Copy a ghost with its mirror twin. */
export function cardSvg(text, t, { copied = null } = {}) {
  const label = text === "K" ? t("ghooost.kitty") : text === "X" ? t("ghooost.copy") : text;
  const corner = text === "K" ? "K" : text === "X" ? (copied ? `X=${copied}` : "X") : text;
  const kind = text === "K" ? "kitty" : text === "X" ? "copy" : "ghost";
  const svg = s("svg", { viewBox: "0 0 60 90", class: `ghooost-card ${kind}`, "aria-hidden": "true" },
    s("rect", { x: 1.5, y: 1.5, width: 57, height: 87, rx: 6, class: "card-face" }),
    s("text", { x: 6, y: 16, class: "corner" }, corner),
    s("text", { x: 54, y: 84, class: "corner", "text-anchor": "end" }, corner));
  if (kind === "kitty") {
    svg.append(
      s("path", { class: "cat", d: "M18 62 L18 34 L25 42 H35 L42 34 L42 62 Q30 70 18 62 Z" }),
      s("circle", { cx: 25, cy: 50, r: 2.2, class: "cat-eye" }),
      s("circle", { cx: 35, cy: 50, r: 2.2, class: "cat-eye" }),
      s("path", { class: "whisker", d: "M12 55 H24 M12 59 L24 57 M48 55 H36 M48 59 L36 57" }));
  } else {
    const ghost = "M16 66 V42 a14 14 0 0 1 28 0 V66 l-4.7 -4 l-4.7 4 l-4.6 -4 l-4.7 4 l-4.6 -4 z";
    if (kind === "copy") svg.append(s("path", { class: "ghost-twin", d: ghost, transform: "translate(5 -3)" }));
    svg.append(s("path", { class: "ghost-shape", d: ghost }),
      s("circle", { cx: 25, cy: 42, r: 2.4, class: "ghost-eye" }),
      s("circle", { cx: 35, cy: 42, r: 2.4, class: "ghost-eye" }));
    if (kind === "ghost") svg.append(s("text", { x: 30, y: 60, class: "centre-value", "text-anchor": "middle" }, text));
  }
  svg.append(s("title", {}, label));
  return svg;
}

function backSvg() {
  return s("svg", { viewBox: "0 0 60 90", class: "ghooost-card back", "aria-hidden": "true" },
    s("rect", { x: 1.5, y: 1.5, width: 57, height: 87, rx: 6, class: "card-back" }),
    s("path", { d: "M30 20 L45 45 L30 70 L15 45 Z", class: "back-mark" }));
}

/** Face-down cards drawn as a small stack (at most three shown), so a count reads as cards at a glance. */
function backStack(count, cls) {
  return h("span", { class: `back-stack ${cls}`, "aria-hidden": "true" },
    Array.from({ length: Math.min(count, 3) }, () => h("span", { class: "stack-card" }, backSvg())));
}

function bouhToken(t) {
  return h("span", { class: "bouh-token", title: t("ghooost.bouh") }, "Bouh!");
}

export function createRenderer(ctx) {
  const { t } = ctx;
  // A replay (ctx.readOnly) draws positions only: the hand is pictures, no picking, no drag, no buttons.
  const readOnly = Boolean(ctx.readOnly);
  // The player's next move is their "continue": it folds away a round summary still shown.
  const act = (text) => {
    if (roundPanel !== null) {
      roundPanel = null;
      draw();
    }
    return ctx.act(text);
  };
  let view = null;
  let picked = new Set(); // indexes into the sorted hand
  let handKey = "";
  // Motion for the next paint: cards that just landed on the cemetery (and where from), who just took it.
  let arrivals = null;
  let tookBy = null;
  let roundsSeen = null; // rounds finished at the last update (null: nothing drawn yet)
  let roundPanel = null; // the finished round whose panel shows, until closed or the player's next move
  const root = h("div", { class: "ghooost" });

  function closeRoundPanel() {
    roundPanel = null;
    draw();
  }

  /** A finished round in words: who got the Bouh!, what each other player scored, the match so far. */
  function roundSummary(round) {
    return h("div", { class: "round-summary" },
      h("p", {}, round.loser === null || round.loser === undefined
        ? t("ghooost.round_drawn")
        : t("ghooost.round_loser", { name: ctx.seatName(round.loser) })),
      h("ul", { class: "round-points" },
        view.seats.map((info) => h("li", { dataset: { seat: info.seat } },
          h("strong", {}, ctx.seatName(info.seat)), " ",
          round.loser === info.seat ? bouhToken(t) : t("ghooost.round_gain", { n: round.points?.[info.seat] ?? 0 }),
          " · ", t("ghooost.points", { n: info.points }), " · ", t("ghooost.bouh_count", { n: info.bouh })))));
  }

  function sortedHand() {
    return [...(view.hand || [])].sort((a, b) => ORDER(a) - ORDER(b));
  }

  function pickedCards(hand) {
    return [...picked].sort((a, b) => a - b).map((i) => hand[i]);
  }

  function legalPlays() {
    return (view.legal || []).filter((text) => text.startsWith("play ")).map((text) => ({ text, cards: text.slice(5).split(" ") }));
  }

  function matchingPlay(cards) {
    return legalPlays().find((play) => sameCards(play.cards, cards)) || null;
  }

  function toggle(index, hand) {
    const card = hand[index];
    if (picked.has(index)) {
      picked.delete(index);
    } else {
      // Keep the pick a possible play: one ghost value (+ Miss Copy), or Kitty alone.
      for (const other of [...picked]) {
        const o = hand[other];
        const clash = card === "K" ? o !== "K" : card === "X" ? o === "K" : o === "K" || (o !== "X" && o !== card);
        if (clash) picked.delete(other);
      }
      picked.add(index);
    }
    draw();
  }

  function playPicked() {
    const play = matchingPlay(pickedCards(sortedHand()));
    if (!play) return;
    picked = new Set();
    act(play.text);
  }

  function seatPanel(info) {
    const me = info.seat === view.seat;
    const turn = view.turn === info.seat;
    const outPlace = view.out_order.indexOf(info.seat);
    return h("div", { class: `ghooost-seat ${me ? "me" : ""} ${turn ? "to-act" : ""} ${info.out ? "out" : ""} ${tookBy === info.seat ? "just-took" : ""}`,
        dataset: { seat: info.seat, animOrigin: `seat:${info.seat}` } },
      h("div", { class: "seat-title" },
        turn ? h("span", { class: "turn-mark", title: t("seat.to_act") }, "▶") : null,
        h("strong", {}, ctx.seatName(info.seat))),
      h("div", { class: "seat-stats" },
        // a seat that is out has neither hand nor mansion: its place takes their lines (whole, where a chip in the
        // title of a phone's narrow plate was cut short)
        ...(info.out
          ? [h("span", { class: "stat out-place" }, t("ghooost.out", { place: outPlace + 1 }))]
          // each count in words, and as a mark and a number for a phone's narrow plates at five or six players
          : [h("span", { class: "stat hand-count", title: t("ghooost.hand") }, "🂠 ",
              h("span", { class: "stat-words" }, t("ghooost.cards_in_hand", { n: info.hand })),
              h("span", { class: "stat-number" }, String(info.hand))),
            h("span", { class: "stat mansion-count", title: t("ghooost.mansion") }, backStack(info.mansion, "mansion-stack"),
              h("span", { class: "stat-words" }, t("ghooost.mansion_count", { n: info.mansion })),
              h("span", { class: "stat-number" }, "⌂ ", String(info.mansion)))]),
        view.match ? h("span", { class: "stat points" }, t("ghooost.points", { n: info.points })) : null,
        view.match ? h("span", { class: "stat bouh" }, Array.from({ length: info.bouh }, () => bouhToken(t)), info.bouh ? "" : t("ghooost.no_bouh")) : null),
      !me && info.known.length
        // on a phone the words give way to a mark, so that the cards themselves show on a narrow plate
        ? h("div", { class: "known", title: t("ghooost.known") },
          h("span", { class: "known-label" }, t("ghooost.known"), " "),
          h("span", { class: "known-mark", "aria-hidden": "true" }, "👁 "),
          info.known.map((c) => h("span", { class: "mini-card" }, c === "K" ? "K" : c)))
        : null);
  }

  function draw() {
    if (!view) return;
    // the cemetery as it lay, for a take: its cards fly to who took them
    const leaving = tookBy === null ? [] : [...root.querySelectorAll(".cemetery .stack-card")]
      .map((node) => ({ node, rect: node.getBoundingClientRect() }));
    redrawAnimated(root, () => redrawKeepingFocus(root, paint));
    if (leaving.length) {
      const taker = tookBy === view.seat ? root.querySelector(".hand") : root.querySelector(`.ghooost-seat[data-seat="${tookBy}"]`);
      flyAway(leaving, taker);
    }
    arrivals = null; // each landing is played once
    tookBy = null;
  }

  function paint() {
    const hand = sortedHand();
    const key = hand.join(",");
    if (key !== handKey) {
      picked = new Set();
      handKey = key;
    }
    const legal = new Set(view.legal || []);
    const myTurn = !readOnly && legal.size > 0;

    // Other seats first, in play order after mine; mine last beside the hand.
    const others = view.seats.filter((info) => info.seat !== view.seat);
    const mine = view.seats.find((info) => info.seat === view.seat);

    const cemetery = h("div", { class: "zone cemetery", dataset: { drop: "1", zone: "cemetery" }, "aria-label": t("ghooost.cemetery") },
      h("div", { class: "zone-title" }, t("ghooost.cemetery")),
      h("div", { class: "stack" },
        view.cemetery.length
          ? view.cemetery.slice(-5).map((entry, i, shown) => {
              const [name, copied] = entry.startsWith("X=") ? ["X", entry.slice(2)] : [entry, null];
              const index = view.cemetery.length - shown.length + i;
              const landed = arrivals && index >= view.cemetery.length - arrivals.count;
              return h("span", { class: "stack-card", dataset: { anim: `cemetery:${index}`, animFrom: landed ? arrivals.from : undefined } },
                cardSvg(name, t, { copied }));
            })
          : h("span", { class: "empty-zone" }, t("ghooost.empty"))),
      h("div", { class: "top-value" }, t("ghooost.top", { value: view.top, count: view.top_count })));
    const kitty = h("div", { class: "zone kitty-zone" },
      h("div", { class: "zone-title" }, t("ghooost.kitty")),
      view.kitty ? h("span", { class: "stack-card" }, cardSvg("K", t)) : h("span", { class: "empty-zone" }, "–"),
      h("div", { class: "count" }, `×${view.kitty}`));
    const crypt = h("div", { class: `zone crypt ${view.midnight ? "midnight" : ""}` },
      h("div", { class: "zone-title" }, t("ghooost.crypt")),
      view.crypt ? backStack(view.crypt, "crypt-stack") : h("span", { class: "moon", title: t("ghooost.midnight") }, "☾"),
      h("div", { class: "count" }, t("ghooost.crypt_count", { n: view.crypt })));
    const discard = h("div", { class: "zone discard" },
      h("div", { class: "zone-title" }, t("ghooost.discard")),
      view.discard.length ? backStack(view.discard.length, "discard-stack") : h("span", { class: "empty-zone" }, t("ghooost.empty")),
      h("div", { class: "count" }, t("ghooost.discard_count", { n: view.discard.length })));
    const direction = view.direction === "clockwise";
    const banner = h("div", { class: "ghooost-banner" },
      h("span", { class: "direction", title: t("ghooost.direction") }, direction ? "↻ " : "↺ ", t(direction ? "ghooost.clockwise" : "ghooost.counterclockwise")),
      h("span", { class: `midnight-flag ${view.midnight ? "on" : ""}` }, view.midnight ? `☾ ${t("ghooost.after_midnight")}` : `☀ ${t("ghooost.before_midnight")}`),
      view.optional_replay ? h("span", { class: "optional-replay chip" }, t("ghooost.optional_replay")) : null,
      view.match ? h("span", { class: "round-no" }, t("ghooost.round", { n: view.round + 1 })) : null,
      h("span", { class: "turns muted" }, t("ghooost.turns", { n: view.turns + 1 })));

    const pickedList = pickedCards(hand);
    const play = matchingPlay(pickedList);
    const handRow = h("div", { class: "hand", role: "group", "aria-label": t("ghooost.your_hand"), dataset: { animOrigin: "hand" } });
    const betterPlay = readOnly ? ctx.better?.() : null;
    const betterLeft = new Map(); // card -> how many of it the better play holds, still to outline
    if (betterPlay?.startsWith("play ")) for (const card of betterPlay.slice(5).split(" ")) betterLeft.set(card, (betterLeft.get(card) ?? 0) + 1);
    hand.forEach((card, index) => {
      const playableAlone = [...legal].some((text) => text.startsWith("play ") && text.slice(5).split(" ").includes(card));
      // On my turn the cards that are in no legal play are dimmed, as The Last does (issue 32 point 22).
      const label = card === "K" ? t("ghooost.kitty") : card === "X" ? t("ghooost.copy") : t("ghooost.card", { value: card });
      if (readOnly) {
        // the cards an analysis found better to play for the move shown (a replay's ctx.better) are outlined
        const better = (betterLeft.get(card) ?? 0) > 0;
        if (better) betterLeft.set(card, betterLeft.get(card) - 1);
        handRow.append(h("div", { class: `card ${better ? "better" : ""}`, role: "img", dataset: { card },
          "aria-label": better ? `${label}, ${t("analysis.better_card")}` : label }, cardSvg(card, t)));
        return;
      }
      const el = h("button", {
          class: `card ${picked.has(index) ? "picked" : ""} ${myTurn && playableAlone ? "playable" : ""} ${myTurn && !playableAlone ? "unplayable" : ""}`,
          dataset: { card },
          "aria-pressed": picked.has(index) ? "true" : "false",
          "aria-label": label,
          onclick: () => toggle(index, hand),
          ondblclick: () => {
            const single = matchingPlay([card]);
            if (single) {
              picked = new Set();
              act(single.text);
            }
          },
        },
        cardSvg(card, t));
      if (myTurn) {
        draggable(el, {
          accepts: (target) => target.dataset.zone === "cemetery",
          onDrop: () => {
            if (!picked.has(index)) toggle(index, hand);
            playPicked();
          },
        });
      }
      handRow.append(el);
    });
    if (!hand.length && view.seat !== null) handRow.append(h("span", { class: "muted" }, t("ghooost.empty_hand")));

    const buttons = h("div", { class: "action-buttons" });
    if (myTurn) {
      buttons.append(h("button", { class: "do-play primary", disabled: !play, onclick: playPicked },
        play ? t("ghooost.play_cards", { cards: play.text.slice(5) }) : t("ghooost.pick_cards")));
      for (const simple of ["take", "gamble", "turn", "pass", "done"]) {
        if (legal.has(simple)) buttons.append(h("button", { class: `do-${simple}`, onclick: () => act(simple) }, t(`ghooost.${simple}`)));
      }
    }

    const finished = roundPanel !== null && !view.outcome ? view.rounds[roundPanel] : null;
    root.append(...[
      h("div", { class: "others" }, others.map(seatPanel)),
      banner,
      // The round just finished lies over the middle of the table (nothing under the pointer moves) until
      // the player closes it or makes their first move of the next round (issue 32 point 12).
      h("div", { class: "centre-wrap" },
        h("div", { class: "centre" }, crypt, cemetery, kitty, discard),
        finished
          ? h("section", { class: "round-panel", "aria-labelledby": "round-panel-title" },
              h("h2", { id: "round-panel-title" }, t("ghooost.round_over", { n: finished.round + 1 })),
              roundSummary(finished),
              h("p", { class: "hint" }, t("ghooost.scoring_explain")),
              h("button", { class: "round-close", onclick: closeRoundPanel }, t("end.close")))
          : null),
      mine ? h("div", { class: "my-area" }, seatPanel(mine), handRow, buttons) : null,
      view.match && view.rounds.length ? roundsTable() : null,
    ].filter(Boolean));
  }

  function roundsTable() {
    return h("table", { class: "scores" },
      h("caption", {}, t("ghooost.scores")),
      h("thead", {}, h("tr", {}, h("th", {}, t("ghooost.round_col")), view.seats.map((info) => h("th", {}, ctx.seatName(info.seat))))),
      h("tbody", {},
        view.rounds.map((round) => h("tr", {}, h("td", {}, String(round.round + 1)),
          view.seats.map((info) => h("td", {}, round.loser === info.seat ? "Bouh!" : `+${round.points[info.seat]}`)))),
        h("tr", { class: "total" }, h("td", {}, t("ghooost.total")), view.seats.map((info) => h("td", {}, String(info.points))))));
  }

  return {
    element: root,
    update(next) {
      if (view) {
        const grown = next.cemetery.length - view.cemetery.length;
        const actor = view.turn;
        if (grown > 0 && actor !== null && actor !== undefined) {
          arrivals = { count: grown, from: actor === next.seat ? "hand" : `seat:${actor}` };
        } else if (!next.cemetery.length && view.cemetery.length && next.round === view.round) {
          tookBy = actor;
        }
      }
      const rounds = next.rounds?.length ?? 0;
      if (roundsSeen !== null && rounds > roundsSeen && next.match) {
        // A round just ended: show it over the next deal until the player closes it or moves.
        roundPanel = rounds - 1;
      }
      roundsSeen = rounds;
      view = next;
      draw();
    },
    redraw: draw,
    /** For the end-of-game panel: the last round, how points are scored, and every round's result. */
    endDetails() {
      if (!view?.match) return null; // a single round: the ranking and the reason say it all
      const last = view.rounds?.at(-1);
      return h("div", { class: "end-details" },
        last && view.match ? roundSummary(last) : null,
        view.match ? h("p", { class: "hint" }, t("ghooost.scoring_explain")) : null,
        view.match && view.rounds.length ? roundsTable() : null);
    },
    commands: ["play", "take", "gamble", "turn", "pass", "done"],
  };
}

const EFFECTS = [
  [8, "ghooost.effect.reverses"],
  [4, "ghooost.effect.clears"],
  [2, "ghooost.effect.skips"],
  [1, "ghooost.effect.again"],
];

function effectWords(effect, t) {
  return EFFECTS.filter(([bit]) => (effect || 0) & bit).map(([, key]) => t(key)).join(", ");
}

/** A move in a few words, for the analysis ("Play 8 8", "Take the cemetery"). */
export function moveWords(action, ctx) {
  const { t } = ctx;
  if (!action.startsWith("play ")) return t(`ghooost.${action}`);
  const cards = action.slice(5).split(" ").map((card) => (card === "K" ? t("ghooost.kitty") : card === "X" ? t("ghooost.copy") : card));
  return t("ghooost.play_cards", { cards: cards.join(" ") });
}

export function describeEvent(event, ctx) {
  const { t } = ctx;
  const name = ctx.seatName(event.seat);
  const effect = effectWords(event.effect, t);
  const tail = effect ? ` (${effect})` : "";
  switch (event.kind) {
    case "play":
      return t("ghooost.log.play", { name, cards: event.cards }) + tail;
    case "take":
      return t("ghooost.log.take", { name, n: (event.cards || []).length });
    case "gamble":
    case "turn":
      return event.played
        ? t(`ghooost.log.${event.kind}_played`, { name, card: event.card }) + tail
        : t(`ghooost.log.${event.kind}_taken`, { name, card: event.card });
    case "pass":
      return t("ghooost.log.pass", { name });
    case "done":
      return t("ghooost.log.done", { name });
    case "draw":
      return t("ghooost.log.draw", { name, n: event.count });
    case "midnight":
      return t("ghooost.log.midnight");
    case "out":
      return t("ghooost.log.out", { name, place: event.place });
    case "deal":
      return t("ghooost.log.deal", { round: event.round + 1, name: ctx.seatName(event.first) });
    case "round_end":
      return event.loser === null || event.loser === undefined
        ? t("ghooost.log.round_draw")
        : t("ghooost.log.round_end", { name: ctx.seatName(event.loser) });
    default:
      return null;
  }
}

/** A seat's final score in words: its match points (a single round scores only win or loss). */
export function scoreText(score, ctx, view) {
  return view?.match ? ctx.t("ghooost.points", { n: score }) : "";
}

export function turnPrompt() {
  return "table.your_turn";
}

/** The seat panels this game draws itself: the table adds clocks and states to them (table_page/seats.js). */
export const SEAT_PANELS = ".ghooost-seat[data-seat]";

/** A seat's cards in hand and in its mansion. */
export function seatCounts(view, seat, t) {
  const info = (view.seats || []).find((entry) => entry.seat === seat);
  return info ? [["hand", t("plate.cards", { n: info.hand })], ["mansion", t("ghooost.mansion_count", { n: info.mansion })]] : [];
}
