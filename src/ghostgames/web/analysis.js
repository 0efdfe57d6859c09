// The analysis of a finished game on its replay page (docs/analysis.md, the API in docs/protocol.md):
// a graph of the reader's estimate at each judged decision, each move's verdict for the move list, the
// better move for the renderer to draw, and a summary per judged player. When there is no analysis yet,
// a button asks for one and the page polls its progress until it is done.
//
// The server judges each decision from its reader's knowledge only (a seat's own view, or the public one
// for a spectator); this page only shows what it was sent. A decision's `ply` counts the record's actions
// from 0, so it is the move that leads to replay step `ply + 1`, the step the move list names.

import { clear, h, s } from "./dom.js";
import { errorText } from "./errors.js";
import { t } from "./i18n.js";
import { api } from "./net.js";

export const LABELS = ["best", "good", "inaccuracy", "mistake", "blunder"];
/** A verdict is a symbol and a word, never a colour alone (chess's "?!", "?", "??" for the bad ones). */
export const SYMBOLS = { best: "★", good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??", missed_win: "⚑" };
const COUNTED = ["inaccuracy", "mistake", "blunder", "missed_win"]; // what the summary counts
const POLL_MS = 1000;
const GRAPH_HEIGHT = 64; // px: the graph is a strip under the board, not a chart that takes the screen
const PAD = { left: 6, right: 6, top: 7, bottom: 7 };

/** The verdicts of a decision: its label, and "missed win" beside it when a winning move was there. */
export function verdicts(decision) {
  return decision.missed_win ? [decision.label, "missed_win"] : [decision.label];
}

/** The worst verdict first: what a point's shape and the move list show. */
export function worstVerdict(decision) {
  return decision.missed_win ? "missed_win" : decision.label;
}

/** A share in [0, 1] as a whole percentage. */
export function percent(value) {
  return Math.round(Math.max(0, Math.min(1, value)) * 100);
}

/** Each judged seat's counts of the verdicts worth naming, and its accuracy, in seat order. */
export function seatSummaries(analysis) {
  const bySeat = new Map();
  for (const decision of analysis.decisions) {
    if (!bySeat.has(decision.seat)) bySeat.set(decision.seat, { seat: decision.seat, decisions: 0, counts: Object.fromEntries(COUNTED.map((k) => [k, 0])) });
    const entry = bySeat.get(decision.seat);
    entry.decisions += 1;
    for (const verdict of verdicts(decision)) if (verdict in entry.counts) entry.counts[verdict] += 1;
  }
  return [...bySeat.values()].sort((a, b) => a.seat - b.seat)
    .map((entry) => ({ ...entry, accuracy: analysis.accuracy?.[String(entry.seat)] ?? null }));
}

/**
 * Where each decision's point lies in a graph `width` wide: x by the replay step its move leads to
 * (steps 1..`moves` across), y by the estimate of the move played (1 at the top); `from` is the
 * estimate of the best move found, so a drop is the segment between the two.
 */
export function graphPoints(decisions, moves, width, height = GRAPH_HEIGHT) {
  const innerW = Math.max(1, width - PAD.left - PAD.right);
  const innerH = height - PAD.top - PAD.bottom;
  const x = (step) => PAD.left + (moves <= 1 ? innerW / 2 : ((step - 1) / (moves - 1)) * innerW);
  const y = (value) => PAD.top + (1 - Math.max(0, Math.min(1, value))) * innerH;
  return decisions.map((decision) => ({ decision, step: decision.ply + 1, x: x(decision.ply + 1), y: y(decision.after),
    from: y(decision.position) }));
}

/** A point's mark: its shape says the verdict as well as its colour does. */
function mark(verdict, x, y) {
  const r = verdict === "best" || verdict === "good" ? 3.2 : 4.6;
  switch (verdict) {
    case "inaccuracy":
      return s("path", { class: "mark", d: `M${x} ${y - r} L${x + r} ${y + r * 0.8} L${x - r} ${y + r * 0.8} Z` });
    case "mistake":
      return s("rect", { class: "mark", x: x - r * 0.8, y: y - r * 0.8, width: r * 1.6, height: r * 1.6 });
    case "blunder":
    case "missed_win":
      return s("path", { class: "mark", d: `M${x} ${y - r - 1} L${x + r + 1} ${y} L${x} ${y + r + 1} L${x - r - 1} ${y} Z` });
    default:
      return s("circle", { class: "mark", cx: x, cy: y, r });
  }
}

/**
 * The analysis part of a replay page. `host` gives what the page knows: `recordId`, `reader` (a seat or
 * null for a spectator), `moves` (the replay's last step), `seatName(seat)`, `moveWords(action)`, `go(step)`
 * (show a step) and `changed()` (the verdicts changed: redraw the board and the move list).
 */
export function createAnalysis(host) {
  const reader = host.reader === null ? "spectator" : String(host.reader);
  const path = `/records/${encodeURIComponent(host.recordId)}/analysis/${reader}`;
  const element = h("section", { class: "analysis", "aria-labelledby": "analysis-title" });
  // named from the first paint: until the server's status comes, an empty heading would leave the section
  // without a name (and its aria-labelledby pointing at nothing, which axe reports)
  const title = h("h2", { id: "analysis-title" }, t("analysis.title"));
  const body = h("div", { class: "analysis-body" });
  element.append(title, body);
  let status = null; // the server's last status document
  let error = null; // a refusal of the server, in the reader's words
  let unavailable = false; // refused on the first look (e.g. no spectator's analysis of this game): no button
  let byStep = new Map();
  let step = 0; // the replay step shown
  let timer = null;
  let graph = null; // {svg, points, cursor} while drawn
  let focusStep = null; // the point that holds the keyboard (roving tabindex)
  const resize = "ResizeObserver" in window ? new ResizeObserver(() => graph && graph.width !== body.clientWidth && draw()) : null;
  resize?.observe(element);

  function accept(doc) {
    status = doc;
    error = null;
    const done = doc.status === "done" && doc.analysis;
    byStep = new Map(done ? doc.analysis.decisions.map((d) => [d.ply + 1, d]) : []);
    clearTimeout(timer);
    timer = doc.status === "queued" || doc.status === "running" ? setTimeout(poll, POLL_MS) : null;
    draw();
    host.changed();
  }

  function refuse(reason) {
    clearTimeout(timer);
    timer = null;
    error = errorText(reason);
    draw();
  }

  function poll() {
    api(path).then(accept, refuse);
  }

  function request() {
    error = null;
    status = { ...(status || {}), status: "queued", progress: null };
    draw();
    api(path, { method: "POST" }).then(accept, refuse);
  }

  /** The decision judged at a step (the move that led to it), or null. */
  function decisionAt(at) {
    return byStep.get(at) ?? null;
  }

  /** The better move to draw at a step: the best move found when it was not the one played. */
  function betterAt(at) {
    const decision = decisionAt(at);
    return decision && decision.best !== decision.played && decision.label !== "best" ? decision.best : null;
  }

  function verdictChip(verdict) {
    return h("span", { class: `verdict verdict-${verdict}` },
      h("span", { class: "verdict-symbol", "aria-hidden": "true" }, SYMBOLS[verdict]), " ", t(`analysis.label.${verdict}`));
  }

  function pointLabel(decision) {
    const words = verdicts(decision).map((v) => t(`analysis.label.${v}`)).join(", ");
    const better = betterAt(decision.ply + 1);
    const said = t("analysis.point", { n: decision.ply + 1, name: host.seatName(decision.seat), move: host.moveWords(decision.played),
      verdict: words, estimate: percent(decision.after) });
    return better ? `${said} ${t("analysis.better", { move: host.moveWords(better), best: percent(decision.position), played: percent(decision.after) })}` : said;
  }

  function drawGraph() {
    const analysis = status.analysis;
    const width = Math.max(120, body.clientWidth || 600);
    const points = graphPoints(analysis.decisions, host.moves, width);
    const seats = [...new Set(analysis.decisions.map((d) => d.seat))].sort();
    const svg = s("svg", { class: "analysis-graph", width, height: GRAPH_HEIGHT, viewBox: `0 0 ${width} ${GRAPH_HEIGHT}`,
      role: "group", "aria-label": t("analysis.graph") });
    const mid = PAD.top + (GRAPH_HEIGHT - PAD.top - PAD.bottom) / 2;
    svg.append(s("rect", { class: "graph-back", x: 0, y: 0, width, height: GRAPH_HEIGHT, rx: 4 }),
      s("line", { class: "graph-half", x1: PAD.left, x2: width - PAD.right, y1: mid, y2: mid }));
    // one line per judged seat (a spectator's analysis judges every seat, each from its own side)
    seats.forEach((seat, index) => {
      const mine = points.filter((p) => p.decision.seat === seat);
      if (mine.length > 1) {
        svg.append(s("polyline", { class: `graph-line line-${index}`, points: mine.map((p) => `${p.x},${p.y}`).join(" ") }));
      }
    });
    const cursor = s("line", { class: "graph-cursor", y1: 0, y2: GRAPH_HEIGHT });
    svg.append(cursor);
    // a bad move's drop: from the estimate of the best move found down to that of the move played
    for (const point of points) {
      if (point.from < point.y - 1 && LABELS.indexOf(point.decision.label) >= 2) {
        svg.append(s("line", { class: "drop", x1: point.x, x2: point.x, y1: point.from, y2: point.y }));
      }
    }
    const tabbable = focusStep ?? nearestStep(points);
    // the area that answers a pointer: as large as the points' spacing allows, so neighbours never overlap
    const spacing = points.length > 1 ? (points.at(-1).x - points[0].x) / (points.length - 1) : 16;
    const hit = Math.max(3, Math.min(8, spacing / 2));
    for (const point of points) {
      const verdict = worstVerdict(point.decision);
      const group = s("g", { class: `analysis-point label-${verdict}`, role: "button", tabindex: point.step === tabbable ? 0 : -1,
        "aria-label": pointLabel(point.decision), dataset: { step: point.step, seat: point.decision.seat } });
      group.append(s("circle", { class: "hit", cx: point.x, cy: point.y, r: hit }), mark(verdict, point.x, point.y));
      group.addEventListener("click", () => choose(point.step));
      group.addEventListener("keydown", (event) => pointKey(event, points, point));
      svg.append(group);
    }
    graph = { svg, points, cursor, width };
    placeCursor();
    return svg;
  }

  /** The point at or before the step shown: the one Tab lands on. */
  function nearestStep(points) {
    const before = points.filter((p) => p.step <= step);
    return (before.at(-1) ?? points[0])?.step ?? null;
  }

  function choose(target) {
    focusStep = target;
    host.go(target);
  }

  /** Enter or Space goes to the point's move; the arrows walk along the points (not the replay). */
  function pointKey(event, points, point) {
    const index = points.indexOf(point);
    const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: points.length - 1 };
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopPropagation();
      choose(point.step);
    } else if (event.key in moves) {
      event.preventDefault();
      event.stopPropagation();
      const next = points[Math.max(0, Math.min(points.length - 1, moves[event.key]))];
      focusStep = next.step;
      for (const el of graph.svg.querySelectorAll(".analysis-point")) el.setAttribute("tabindex", el.dataset.step === String(next.step) ? "0" : "-1");
      graph.svg.querySelector(`.analysis-point[data-step="${next.step}"]`)?.focus();
    }
  }

  function placeCursor() {
    if (!graph) return;
    const x = graph.points.length ? graphPoints([{ ply: step - 1, after: 0, position: 0 }], host.moves, graph.width)[0].x : 0;
    graph.cursor.setAttribute("x1", x);
    graph.cursor.setAttribute("x2", x);
    graph.cursor.style.visibility = step > 0 ? "visible" : "hidden";
    for (const el of graph.svg.querySelectorAll(".analysis-point")) {
      el.classList.toggle("current", el.dataset.step === String(step));
    }
  }

  /** What the analysis says of the move shown. */
  function currentLine() {
    const decision = decisionAt(step);
    if (!decision) return h("p", { class: "analysis-current muted" }, step > 0 ? t("analysis.not_judged") : t("analysis.pick_point"));
    const better = betterAt(step);
    return h("p", { class: "analysis-current" },
      h("span", { class: "analysis-move" }, t("analysis.move", { n: step, move: host.moveWords(decision.played) })), " ",
      verdicts(decision).map(verdictChip), " ",
      better
        ? h("span", { class: "analysis-better" }, t("analysis.better", { move: host.moveWords(better), best: percent(decision.position), played: percent(decision.after) }))
        : h("span", { class: "analysis-estimate" }, t("analysis.estimate", { estimate: percent(decision.after) })));
  }

  function summaryLine(entry) {
    const counts = COUNTED.filter((key) => entry.counts[key] > 0).map((key) => t(`analysis.count.${key}`, { n: entry.counts[key] }));
    return h("li", { dataset: { seat: entry.seat } }, t("analysis.summary", {
      name: host.seatName(entry.seat),
      counts: counts.length ? counts.join(", ") : t("analysis.clean"),
      accuracy: entry.accuracy === null ? "–" : String(Math.round(entry.accuracy)),
    }));
  }

  function draw() {
    const hadFocus = element.contains(document.activeElement) ? document.activeElement : null;
    const refocus = hadFocus?.classList?.contains("analysis-point") ? hadFocus.dataset.step : hadFocus?.className;
    clear(body);
    graph = null;
    title.textContent = t("analysis.title");
    const state = status?.status ?? "none";
    if (state === "done" && status.analysis) {
      const analysis = status.analysis;
      body.append(
        h("p", { class: "analysis-meaning muted" }, t(`analysis.meaning.${analysis.game}`), " ",
          t(host.reader === null ? "analysis.from_spectator" : "analysis.from_seat", { name: host.seatName(host.reader ?? 0) })),
        analysis.decisions.length ? drawGraph() : h("p", { class: "muted" }, t("analysis.nothing_judged")),
        currentLine(),
        h("ul", { class: "analysis-summary" }, seatSummaries(analysis).map(summaryLine)));
    } else if (state === "queued" || state === "running") {
      const progress = status.progress;
      const known = state === "running" && progress && progress.total;
      body.append(h("p", { class: "analysis-progress", role: "status" },
        known ? t("analysis.running", { done: progress.done, total: progress.total }) : t("analysis.queued"), " ",
        h("progress", { max: known ? progress.total : null, value: known ? progress.done : null, "aria-label": t("analysis.title") })));
    } else {
      const failed = state === "failed" ? (status.error ? errorText(status.error) : "") : null;
      body.append(
        failed !== null ? h("p", { class: "analysis-error form-error", role: "alert" }, t("analysis.failed", { reason: failed })) : null,
        error ? h("p", { class: "analysis-error form-error", role: "alert" }, error) : null,
        unavailable ? null : h("p", { class: "analysis-offer" },
          h("button", { type: "button", class: "analysis-start primary", onclick: request }, t(failed !== null ? "analysis.retry" : "analysis.start")), " ",
          h("span", { class: "muted" }, t("analysis.offer"))));
    }
    if (refocus) {
      const again = body.querySelector(`.analysis-point[data-step="${refocus}"]`) || body.querySelector(`.${String(refocus).split(" ")[0]}`);
      again?.focus({ preventScroll: true });
    }
  }

  return {
    element,
    /** Ask the server what it has (and, with `start`, queue the analysis when there is none). */
    load(start = false) {
      return api(path).then((doc) => {
        if (start && doc.status === "none") request();
        else accept(doc);
      }, (reason) => {
        unavailable = true;
        refuse(reason);
      });
    },
    /** The replay shows `at` now. */
    show(at) {
      step = at;
      if (!status?.analysis) return;
      const line = body.querySelector(".analysis-current");
      line?.replaceWith(currentLine());
      placeCursor();
    },
    decisionAt,
    betterAt,
    verdictChip,
    verdicts,
    redraw: draw,
  };
}
