// A player's page (/player/{name}): the rating per game with a small history chart, games played, and
// the recent games with opponents and results, each linking to its replay (from one's own seat for the
// player themself). Bots have pages too: /player/bot:hard.

import { clear, h, s } from "./dom.js";
import { errorText } from "./errors.js";
import { language, onLanguageChange, t } from "./i18n.js";
import { api, session } from "./net.js";

const PAGE = 20;
const CHART = { width: 280, height: 96, left: 40, right: 8, top: 8, bottom: 22 };
// A rating is provisional while its uncertainty is this large or more (about the first ten games; a new
// player's is 1000): shown as "927?" with the word "provisional", as the big sites do, not as "927 ± 968".
export const PROVISIONAL_UNCERTAINTY = 750;

export const isProvisional = (rating) => rating.uncertainty >= PROVISIONAL_UNCERTAINTY;

/** A rating as one number: "927?" while provisional, "1104" once it is sure enough. */
export function shownRating(rating) {
  return isProvisional(rating) ? `${rating.rating}?` : String(rating.rating);
}

/** "1104 ± 690", or "927? (provisional)" while it is uncertain. */
export function ratingText(rating) {
  return isProvisional(rating) ? t("rating.provisional", { rating: rating.rating })
    : t("rating.value", { rating: rating.rating, uncertainty: rating.uncertainty });
}

/** An opponent as the record names them: a bot by its level (its seat too when two of a level sat) and
 * linked to the level's page; a person by name. */
function opponentName(game, seat) {
  const key = game.keys?.[seat] ?? "";
  const name = game.names[seat];
  if (!key.startsWith("bot:")) return h("span", { class: "opponent" }, name);
  const level = t(`bot.${key.slice(4)}`);
  const label = / bot \d+$/.test(name) ? t("seat.bot", { seat: seat + 1, level }) : t("rating.bot", { level });
  return h("a", { class: "opponent player-link", href: `/player/${encodeURIComponent(key)}` }, label);
}

/** A player's name as a link to their page; bots read as their level. */
export function playerLink(key, name) {
  const label = key.startsWith("bot:") ? t("rating.bot", { level: t(`bot.${key.slice(4)}`) }) : name;
  return h("a", { class: "player-link", href: `/player/${encodeURIComponent(key)}` }, label);
}

/** The rating over the last rated games, with its axes: the rating up the side (lowest and highest),
 * the games along the bottom (the first and the last shown). */
function chart(history, games) {
  const values = history.map((point) => point.rating);
  if (values.length < 2) return null;
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = Math.max(1, high - low);
  const { width, height, left, right, top, bottom } = CHART;
  const x = (i) => left + (i * (width - left - right)) / (values.length - 1);
  const y = (v) => height - bottom - ((v - low) * (height - top - bottom)) / span;
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const firstGame = Math.max(1, games - values.length + 1);
  const text = (attrs, value) => s("text", { class: "chart-label", "font-size": 10, fill: "currentColor", ...attrs }, String(value));
  return s("svg", { class: "rating-chart", viewBox: `0 0 ${width} ${height}`, width, height, role: "img",
    "aria-label": t("profile.chart", { from: values[0], to: values[values.length - 1] }) },
    s("path", { class: "chart-axis", d: `M${left} ${top} V${height - bottom} H${width - right}`, fill: "none",
      stroke: "currentColor", "stroke-width": 1, opacity: 0.6 }),
    text({ x: left - 4, y: y(high) + 4, "text-anchor": "end", class: "chart-label chart-high" }, high),
    text({ x: left - 4, y: y(low) + 4, "text-anchor": "end", class: "chart-label chart-low" }, low),
    text({ x: left, y: height - 6, "text-anchor": "start", class: "chart-label chart-first" }, t("profile.chart_game", { n: firstGame })),
    text({ x: width - right, y: height - 6, "text-anchor": "end", class: "chart-label chart-last" }, t("profile.chart_game", { n: games })),
    s("polyline", { points, fill: "none", stroke: "currentColor", "stroke-width": 2 }));
}

export async function profilePage(root, connection, name) {
  const body = h("div", { class: "profile-page" }, h("p", { role: "status" }, t("table.loading")));
  root.append(body);
  let profile;
  try {
    profile = await api(`/players/${encodeURIComponent(name)}`);
  } catch (error) {
    clear(body).append(h("p", { class: "form-error", role: "alert" }, errorText(error)));
    return;
  }
  const mine = !profile.bot && session.name && session.name.toLowerCase() === profile.player;
  const games = [];
  let next = null;
  const gameList = h("ol", { class: "profile-games" });
  const more = h("button", { type: "button", class: "profile-more", hidden: true, onclick: () => load() }, t("profile.more"));
  const downloadNote = h("span", { class: "download-note", role: "status" });

  let loaded = false;
  async function load() {
    if (loaded && next === null) return; // nothing more: never the first page twice
    loaded = true;
    const query = new URLSearchParams({ limit: String(PAGE) });
    if (next !== null) query.set("before", String(next));
    try {
      const page = await api(`/players/${encodeURIComponent(name)}/games?${query}`);
      games.push(...page.items);
      next = page.next;
      drawGames();
    } catch (error) {
      downloadNote.textContent = errorText(error);
    }
  }

  async function download() {
    try {
      const data = await api(`/players/${encodeURIComponent(profile.player)}/records`);
      const blob = new Blob([JSON.stringify(data, null, 1)], { type: "application/json" });
      const link = h("a", { href: URL.createObjectURL(blob), download: `ghostgames-${profile.player}.json` });
      document.body.append(link);
      link.click();
      link.remove();
      downloadNote.textContent = t("profile.downloaded", { n: data.records.length, withheld: data.withheld });
    } catch (error) {
      downloadNote.textContent = errorText(error);
    }
  }

  function resultWord(result) {
    return result ? t(`result.word.${result.result}`) : "–";
  }

  function gameItem(game) {
    const opponents = game.names.map((_, seat) => seat).filter((seat) => seat !== game.seat)
      .flatMap((seat, i) => (i ? [", ", opponentName(game, seat)] : [opponentName(game, seat)]));
    const when = new Date(game.created).toLocaleString(language());
    const change = game.rating
      ? h("span", { class: "rating-change" }, t("profile.change", { before: shownRating(game.rating.before), after: shownRating(game.rating.after) }))
      : h("span", { class: "unrated" }, t("profile.unrated"));
    const links = [h("a", { class: "replay-link", href: `/replay/${game.id}` }, t("profile.replay"))];
    if (mine) links.push(h("a", { class: "replay-mine", href: `/replay/${game.id}?seat=${game.seat}` }, t("profile.my_seat")));
    return h("li", { class: "profile-game", dataset: { record: game.id } },
      h("span", { class: "game-name" }, t(`game.${game.game}`)), " ",
      h("span", { class: `result result-${game.result?.result || "none"}` }, resultWord(game.result)), " ",
      h("span", { class: "opponents" }, t("profile.against_prefix"), " ", ...opponents), " ",
      change, " ", h("time", { datetime: game.created }, when), " ", ...links);
  }

  function drawGames() {
    clear(gameList);
    if (!games.length) gameList.append(h("li", { class: "empty" }, t("profile.no_games")));
    for (const game of games) gameList.append(gameItem(game));
    more.hidden = next === null;
    more.textContent = t("profile.more");
  }

  function draw() {
    const title = profile.bot ? t("rating.bot", { level: t(`bot.${profile.player.slice(4)}`) }) : profile.name;
    const played = Object.values(profile.games).reduce((a, b) => a + b, 0);
    const cards = profile.ratings.map((rating) => h("section", { class: "rating-card", dataset: { game: rating.game } },
      h("h3", {}, h("a", { href: `/ratings/${rating.game}` }, t(`game.${rating.game}`))),
      h("p", { class: `rating-value${isProvisional(rating) ? " provisional" : ""}` }, ratingText(rating)),
      h("p", { class: "rating-games" }, t("profile.record", { wins: t("profile.wins", { n: rating.wins }),
        games: t("profile.rated_games", { n: rating.games }) })),
      chart(rating.history, rating.games)));
    clear(body).append(
      h("h1", { class: "profile-name" }, title),
      profile.since ? h("p", { class: "profile-since" }, t("profile.since", { date: new Date(profile.since).toLocaleDateString(language()) })) : null,
      h("p", { class: "profile-played" }, t("profile.played", { n: played })),
      h("h2", { class: "profile-ratings" }, t("profile.ratings")),
      h("div", { class: "rating-cards" }, cards.length ? cards : h("p", {}, t("profile.no_ratings"))),
      h("h2", {}, t("profile.recent")),
      gameList, more,
      mine ? h("p", { class: "profile-download" },
        h("button", { type: "button", class: "download-records", onclick: download }, t("profile.download")), " ", downloadNote) : null,
    );
    drawGames();
  }

  draw();
  onLanguageChange(draw);
  await load();
}

export async function ratingsPage(root, connection, game) {
  // The games the server plays (GET /api/games), so a new game's leaderboard needs no edit here.
  const GAMES = await api("/games").then((games) => games.map((spec) => spec.name), () => [game]);
  if (!GAMES.includes(game)) game = GAMES[0];
  const rows = [];
  let next = 0;
  const body = h("div", { class: "ratings-page" });
  root.append(body);
  const list = h("tbody");
  const more = h("button", { type: "button", class: "ratings-more", hidden: true, onclick: () => load() }, t("profile.more"));
  const note = h("p", { role: "status" });

  async function load() {
    if (next === null) return; // the last page is shown: nothing more to ask for
    try {
      const page = await api(`/ratings/${game}?offset=${next}&limit=50`);
      rows.push(...page.items);
      next = page.next;
      draw();
    } catch (error) {
      note.textContent = errorText(error);
    }
  }

  function draw() {
    clear(list);
    for (const row of rows) {
      list.append(h("tr", { dataset: { player: row.player } },
        h("td", {}, String(row.place)), h("td", {}, playerLink(row.player, row.name)),
        h("td", {}, ratingText(row)), h("td", {}, String(row.games)), h("td", {}, String(row.wins))));
    }
    clear(body).append(
      h("h1", {}, t("rating.title", { game: t(`game.${game}`) })),
      h("nav", { class: "ratings-games", "aria-label": t("rating.games_nav") }, GAMES.map((g) => h("a", { href: `/ratings/${g}`, "aria-current": g === game ? "page" : null }, t(`game.${g}`)))),
      rows.length ? h("table", { class: "leaderboard" },
        h("thead", {}, h("tr", {}, ...["rating.place", "rating.player", "rating.rating", "rating.games", "rating.wins"].map((key) => h("th", {}, t(key))))),
        list) : h("p", { class: "empty" }, t("rating.empty")),
      more, note);
    more.hidden = next === null;
    more.textContent = t("profile.more");
  }

  onLanguageChange(draw);
  await load();
}
