// The Last in the browser, drawn from view(seat): your hand with the playable cards marked, the trick,
// the turned points card, face-down piles (yours with values, others' counts and known cards), keep or
// swap after a won trick, the ghost's pile with two players, and the round scores. Every card shows its
// colour's symbol and letter as well as its colour.

import { redrawAnimated } from "../animate.js";
import { h, redrawKeepingFocus, s } from "../dom.js";
import { draggable } from "../drag.js";

const COLOURS = { R: ["red", "▲"], B: ["blue", "●"], G: ["green", "■"], Y: ["yellow", "★"] };
// A seat's hand and its face-down pile, as marks where a phone's plates are too narrow for the words
const HAND_MARK = "🂠";
const PILE_MARK = "▼";

// What a plate knows of another seat's cards: the view's field, its words, its mark on a narrow plate
const KNOWN_LINES = [
  ["known_in_pile", "thelast.known_pile", PILE_MARK],
  ["in_hand_or_pile", "thelast.known_mixed", `${HAND_MARK}/${PILE_MARK}`],
  ["known_in_hand", "thelast.known_hand", HAND_MARK],
];

/** A count in words, and as its mark and number for a narrow plate (the words then its title). */
function countStat(kind, words, mark, n) {
  return h("span", { class: `stat ${kind}`.trim(), title: words },
    h("span", { class: "stat-words" }, words), h("span", { class: "stat-number" }, `${mark} ${n}`));
}

/** The words before a line of known cards, and the mark that stands for them on a phone's narrow plate. */
function knownLabel(words, mark) {
  return [h("span", { class: "known-label" }, words, " "), h("span", { class: "known-mark", "aria-hidden": "true" }, `${mark} `)];
}

export function cardParts(name) {
  const letter = name[0];
  const [colour, symbol] = COLOURS[letter] || ["grey", "?"];
  return { letter, colour, symbol, value: name.slice(1) };
}

/** A face-up card: coloured frame, the value large, the colour's symbol in the corners. */
export function cardSvg(name) {
  const { colour, symbol, value } = cardParts(name);
  return s("svg", { viewBox: "0 0 60 90", class: `last-card colour-${colour}`, "aria-hidden": "true" },
    s("rect", { x: 1.5, y: 1.5, width: 57, height: 87, rx: 6, class: "card-face" }),
    s("rect", { x: 6, y: 6, width: 48, height: 78, rx: 4, class: "card-band" }),
    s("text", { x: 10, y: 21, class: "corner" }, symbol),
    s("text", { x: 50, y: 80, class: "corner", "text-anchor": "end" }, symbol),
    s("text", { x: 30, y: 56, class: "value", "text-anchor": "middle" }, value));
}

function backSvg() {
  return s("svg", { viewBox: "0 0 60 90", class: "last-card back", "aria-hidden": "true" },
    s("rect", { x: 1.5, y: 1.5, width: 57, height: 87, rx: 6, class: "card-back" }),
    s("circle", { cx: 30, cy: 45, r: 14, class: "back-mark" }));
}

function cardWord(name, t) {
  const { colour, value } = cardParts(name);
  return t("thelast.card", { colour: t(`thelast.colour.${colour}`), value });
}

function miniCards(cards) {
  return cards.map((c) => h("span", { class: `mini-card colour-${cardParts(c).colour}` }, `${cardParts(c).symbol}${cardParts(c).value}`));
}

/** A finished trick's cards in play order, each with who played it; the winner's card marked. */
function trickCards(trick, who, t) {
  return trick.plays.map((play) => h("figure", {
      class: `played ${play.who === trick.winner && trick.winner !== undefined ? "winning" : ""}`,
      "aria-label": `${who(play.who)}: ${cardWord(play.card, t)}` },
    cardSvg(play.card), h("figcaption", {}, who(play.who))));
}

export function createRenderer(ctx) {
  const { t } = ctx;
  // A replay (ctx.readOnly) draws positions only: the hand is pictures, no play, keep or swap.
  const readOnly = Boolean(ctx.readOnly);
  let view = null;
  let roundsSeen = null; // how many rounds were counted at the last update (null: none drawn yet)
  let roundPanel = null; // the index of the counted round whose panel shows, until closed or the next move
  // The player's next move is their "continue": it folds away a round summary still shown.
  const act = (text) => {
    if (roundPanel !== null) {
      roundPanel = null;
      draw();
    }
    return ctx.act(text);
  };
  const root = h("div", { class: "thelast" });

  function who(name) {
    return name === "ghost" ? t("thelast.ghost") : ctx.seatName(name);
  }

  function draw() {
    if (view) redrawAnimated(root, () => redrawKeepingFocus(root, paint));
  }

  function closeRoundPanel() {
    roundPanel = null;
    draw();
  }

  /** The round just counted: every seat's face-down cards, now turned up, and its penalty. */
  function pilesList(round) {
    const seats = [...Array(view.players).keys()];
    return h("ul", { class: "round-piles" },
      seats.map((seat) => h("li", { dataset: { seat } },
        h("strong", {}, ctx.seatName(seat)), " ",
        t("thelast.round_penalty", { n: view.round_penalties[round]?.[seat] ?? 0 }), " ",
        view.round_piles?.[seat]?.length ? miniCards(view.round_piles[seat]) : h("span", { class: "muted" }, t("thelast.no_pile")))));
  }

  function paint() {
    const legal = new Set(readOnly ? [] : view.legal || []);
    const deciding = view.phase === "decide" && legal.has("keep");
    const hand = view.hand || [];

    const points = h("div", { class: "zone points-zone" },
      h("div", { class: "zone-title" }, t("thelast.points_card")),
      view.points_card ? h("span", { class: "card-slot", role: "img", "aria-label": cardWord(view.points_card, t) }, cardSvg(view.points_card)) : backSvg(),
      h("div", { class: "count" }, t("thelast.points_left", { n: view.points_left })));
    // The finished trick stays on the table until the next one begins, so its winner sees it while
    // choosing keep or swap; during the next trick it can be looked at again under "Last trick".
    const finished = view.tricks.at(-1);
    const showFinished = !view.trick.length && finished;
    const trick = h("div", { class: `zone trick ${showFinished ? "trick-done" : ""}`, dataset: { drop: "1", zone: "trick" } },
      h("div", { class: "zone-title" }, showFinished ? t("thelast.trick_won_by", { name: who(finished.winner) }) : t("thelast.trick")),
      h("div", { class: "trick-cards" },
        view.trick.length
          ? view.trick.map((play) => h("figure", {
                class: "played", "aria-label": `${who(play.who)}: ${cardWord(play.card, t)}`,
                dataset: { anim: `card:${play.card}`, animFrom: `who:${play.who}` } },
              cardSvg(play.card), h("figcaption", {}, who(play.who))))
          : showFinished ? trickCards(finished, who, t)
            : h("span", { class: "empty-zone" }, t("thelast.no_cards_yet"))),
      view.trick.length && finished
        ? h("details", { class: "last-trick" },
            h("summary", {}, t("thelast.last_trick", { name: who(finished.winner) })),
            h("div", { class: "trick-cards" }, trickCards(finished, who, t)))
        : null,
      view.required_colours?.length && !deciding
        ? h("div", { class: "required" }, t("thelast.colours_in_trick"), " ",
            view.required_colours.map((letter) => h("span", { class: `colour-chip colour-${COLOURS[letter][0]}` },
              `${COLOURS[letter][1]} ${t(`thelast.colour.${COLOURS[letter][0]}`)}`)))
        : null);

    const piles = h("div", { class: "participants" },
      view.participants.map((p) => {
        const mine = p.who === view.seat;
        const acting = view.turn === p.who;
        return h("div", { class: `participant ${mine ? "me" : ""} ${acting ? "to-act" : ""}`,
            dataset: { who: p.who, animOrigin: `who:${p.who}` } },
          h("div", { class: "seat-title" }, acting ? h("span", { class: "turn-mark" }, "▶") : null, h("strong", {}, who(p.who)),
            view.leader === p.who ? h("span", { class: "chip leader" }, t("thelast.leader")) : null),
          // each count in words, and as a mark and a number for a phone's narrow plates from four players (the
          // marks then also name the lines of known cards below)
          h("div", { class: "seat-stats" },
            countStat("", t(p.who === "ghost" ? "thelast.ghost_pile" : "thelast.hand_count", { n: p.hand_size }), HAND_MARK, p.hand_size),
            countStat("pile-count", t("thelast.pile_count", { n: p.pile_size }), PILE_MARK, p.pile_size)),
          mine && view.pile?.length
            ? h("div", { class: "own-pile" }, t("thelast.your_pile", { n: view.penalty }), " ",
                view.pile.map((c) => h("span", { class: `mini-card colour-${cardParts(c).colour}` }, `${cardParts(c).symbol}${cardParts(c).value}`)))
            : null,
          mine ? [] : KNOWN_LINES.filter(([field]) => p[field]?.length).map(([field, key, mark]) =>
            h("div", { class: "known", title: t(key) }, knownLabel(t(key), mark), miniCards(p[field]))));
      }));

    const handRow = h("div", { class: "hand", role: "group", "aria-label": t("thelast.your_hand") });
    const betterCard = readOnly ? ctx.better?.()?.split(" ")[1] ?? null : null;
    for (const card of hand) {
      const playText = `play ${card}`;
      const swapText = `swap ${card}`;
      const playable = legal.has(playText);
      const swappable = deciding && legal.has(swapText);
      const label = `${cardWord(card, t)}${playable ? `, ${t("thelast.playable")}` : ""}${swappable ? `, ${t("thelast.swap_this")}` : ""}`;
      if (readOnly) {
        // the card an analysis found better for the move shown (a replay's ctx.better) is outlined
        const better = betterCard === card;
        handRow.append(h("div", { class: `card ${better ? "better" : ""}`, role: "img", dataset: { card, anim: `card:${card}` },
          "aria-label": better ? `${label}, ${t("analysis.better_card")}` : label }, cardSvg(card)));
        continue;
      }
      const el = h("button", {
          class: `card ${playable ? "playable" : ""} ${swappable ? "swappable" : ""} ${legal.size && !playable && !swappable ? "unplayable" : ""}`,
          dataset: { card, anim: `card:${card}` },
          "aria-label": label,
          disabled: !(playable || swappable),
          onclick: () => act(playable ? playText : swapText),
        },
        cardSvg(card),
        playable ? h("span", { class: "play-mark", "aria-hidden": "true" }, "✓") : null);
      if (playable) draggable(el, { accepts: (target) => target.dataset.zone === "trick", onDrop: () => act(playText) });
      handRow.append(el);
    }

    const decision = deciding
      ? h("div", { class: "decision" },
          h("p", {}, t("thelast.you_won", { card: cardWord(view.points_card, t) })),
          h("button", { class: "do-keep primary", onclick: () => act("keep") }, t("thelast.keep")),
          h("span", { class: "hint" }, t("thelast.or_swap")))
      : null;

    const counted = roundPanel !== null && !view.outcome && view.round_penalties[roundPanel]
      ? h("section", { class: "round-panel", "aria-labelledby": "round-panel-title" },
          h("h2", { id: "round-panel-title" }, t("thelast.round_over", { n: roundPanel + 1 })),
          h("p", {}, t("thelast.round_over_hint")),
          pilesList(roundPanel),
          h("button", { class: "round-close", onclick: closeRoundPanel }, t("end.close")))
      : null;

    root.append(...[
      h("div", { class: "thelast-banner" },
        h("span", {}, t("thelast.round", { n: view.round, total: view.rounds })),
        view.players === 2 ? h("span", { class: "muted" }, t("thelast.ghost_plays")) : null),
      piles,
      // The round just counted lies over the middle of the table (nothing under the pointer moves).
      h("div", { class: "centre-wrap" }, h("div", { class: "centre" }, points, trick), counted),
      // The hand and what to decide now are one area, docked at the bottom of a phone's screen.
      view.hand ? h("div", { class: "my-area" }, decision, h("h2", {}, t("thelast.your_hand")), handRow) : decision,
      scoresTable(),
    ].filter(Boolean));
  }

  function scoresTable() {
    const seats = [...Array(view.players).keys()];
    return h("table", { class: "scores" },
      h("caption", {}, t("thelast.scores")),
      h("thead", {}, h("tr", {}, h("th", {}, t("thelast.round_col")), seats.map((seat) => h("th", {}, ctx.seatName(seat))))),
      h("tbody", {},
        view.round_penalties.map((row, index) => h("tr", {}, h("td", {}, String(index + 1)), row.map((value) => h("td", {}, String(value))))),
        h("tr", { class: "total" }, h("td", {}, t("thelast.total")), view.totals.map((value) => h("td", {}, String(value))))));
  }

  return {
    element: root,
    update(next) {
      const counted = next.round_penalties.length;
      if (roundsSeen !== null && counted > roundsSeen) {
        // A round was just counted: say so over the next deal until the player closes it or moves.
        roundPanel = counted - 1;
      }
      roundsSeen = counted;
      view = next;
      draw();
    },
    redraw: draw,
    /** For the end-of-game panel: penalties per round and the face-down cards of the last round. */
    endDetails() {
      if (!view) return null;
      return h("div", { class: "end-details" },
        h("p", {}, t("thelast.end_explain")),
        h("h2", {}, t("thelast.round_over", { n: view.round_penalties.length })),
        pilesList(view.round_penalties.length - 1),
        scoresTable());
    },
    commands: ["play", "keep", "swap"],
  };
}

/** A move in a few words, for the analysis ("play red 5", "keep it face down"). */
export function moveWords(action, ctx) {
  const [verb, card] = action.split(" ");
  if (verb === "keep") return ctx.t("thelast.keep");
  return ctx.t(verb === "swap" ? "thelast.swap_short" : "thelast.play_short", { card: cardWord(card, ctx.t) });
}

export function describeEvent(event, ctx) {
  const { t } = ctx;
  const name = event.seat === "ghost" ? t("thelast.ghost") : ctx.seatName(event.seat);
  switch (event.kind) {
    case "play":
      return t("thelast.log.play", { name, card: cardWord(event.card, t) });
    case "trick":
      return t("thelast.log.trick", {
        name: event.winner === "ghost" ? t("thelast.ghost") : ctx.seatName(event.winner),
        card: cardWord(event.card, t), points: cardWord(event.points, t) });
    case "keep":
      return t("thelast.log.keep", { name, card: cardWord(event.card, t) });
    case "swap":
      return t("thelast.log.swap", { name, card: cardWord(event.card, t) });
    case "points":
      return t("thelast.log.points", { card: cardWord(event.card, t) });
    case "deal":
      return t("thelast.log.deal", { round: event.round });
    case "round":
      return t("thelast.log.round", { round: event.round, totals: (event.totals || []).join(" / ") });
    default:
      return null;
  }
}

/** A seat's final score in words: its total penalty. */
export function scoreText(score, ctx) {
  return ctx.t("thelast.total_penalty", { n: score });
}

export function turnPrompt(view) {
  return view?.phase === "decide" ? "thelast.prompt_decide" : "table.your_turn";
}

/** The seat panels this game draws itself: the table adds clocks and states to them (table_page/seats.js). */
export const SEAT_PANELS = ".participant[data-who]";

/** A seat's cards in hand and on its pile. */
export function seatCounts(view, seat, t) {
  const info = (view.participants || []).find((entry) => entry.who === seat);
  return info ? [["hand", t("plate.cards", { n: info.hand_size })], ["pile", t("plate.pile", { n: info.pile_size })]] : [];
}
