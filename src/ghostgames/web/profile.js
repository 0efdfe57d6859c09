// A player's page (/player/{name}): the rating per game with a small history chart, games played, and
// the recent games with opponents and results, each linking to its replay (from one's own seat for the
// player themself). Bots have pages too: /player/bot:hard.

import { clear, h, s } from "./dom.js";
import { errorText } from "./errors.js";
import { language, onLanguageChange, t } from "./i18n.js";
import { api, session } from "./net.js";

const PAGE = 20;
const CHART = { width: 240, height: 64, pad: 4 };

/** "1104 ± 690": the shown rating and its uncertainty. */
export function ratingText(rating) {
  return t("rating.value", { rating: rating.rating, uncertainty: rating.uncertainty });
}

/** A player's name as a link to their page; bots read as their level. */
export function playerLink(key, name) {
  const label = key.startsWith("bot:") ? t("rating.bot", { level: t(`bot.${key.slice(4)}`) }) : name;
  return h("a", { class: "player-link", href: `/player/${encodeURIComponent(key)}` }, label);
}

function chart(history) {
  const values = history.map((point) => point.rating);
  if (values.length < 2) return null;
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = Math.max(1, high - low);
  const x = (i) => CHART.pad + (i * (CHART.width - 2 * CHART.pad)) / (values.length - 1);
  const y = (v) => CHART.height - CHART.pad - ((v - low) * (CHART.height - 2 * CHART.pad)) / span;
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  return s("svg", { class: "rating-chart", viewBox: `0 0 ${CHART.width} ${CHART.height}`, width: CHART.width,
    height: CHART.height, role: "img", "aria-label": t("profile.chart", { from: values[0], to: values[values.length - 1] }) },
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

  async function load() {
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
    const opponents = game.names.filter((_, seat) => seat !== game.seat);
    const when = new Date(game.created).toLocaleString(language());
    const change = game.rating
      ? h("span", { class: "rating-change" }, t("profile.change", { before: game.rating.before.rating, after: game.rating.after.rating }))
      : h("span", { class: "unrated" }, t("profile.unrated"));
    const links = [h("a", { class: "replay-link", href: `/replay/${game.id}` }, t("profile.replay"))];
    if (mine) links.push(h("a", { class: "replay-mine", href: `/replay/${game.id}?seat=${game.seat}` }, t("profile.my_seat")));
    return h("li", { class: "profile-game", dataset: { record: game.id } },
      h("span", { class: "game-name" }, t(`game.${game.game}`)), " ",
      h("span", { class: `result result-${game.result?.result || "none"}` }, resultWord(game.result)), " ",
      h("span", { class: "opponents" }, t("profile.against", { names: opponents.join(", ") })), " ",
      change, " ", h("time", { datetime: game.created }, when), " ", ...links);
  }

  function drawGames() {
    clear(gameList);
    if (!games.length) gameList.append(h("li", { class: "empty" }, t("profile.no_games")));
    for (const game of games) gameList.append(gameItem(game));
    more.hidden = next === null;
  }

  function draw() {
    const title = profile.bot ? t("rating.bot", { level: t(`bot.${profile.player.slice(4)}`) }) : profile.name;
    const played = Object.values(profile.games).reduce((a, b) => a + b, 0);
    const cards = profile.ratings.map((rating) => h("section", { class: "rating-card", dataset: { game: rating.game } },
      h("h3", {}, h("a", { href: `/ratings/${rating.game}` }, t(`game.${rating.game}`))),
      h("p", { class: "rating-value" }, ratingText(rating)),
      h("p", { class: "rating-games" }, t("profile.record", { games: rating.games, wins: rating.wins })),
      chart(rating.history)));
    clear(body).append(
      h("h2", { class: "profile-name" }, title),
      profile.since ? h("p", { class: "profile-since" }, t("profile.since", { date: new Date(profile.since).toLocaleDateString(language()) })) : null,
      h("p", { class: "profile-played" }, t("profile.played", { n: played })),
      h("div", { class: "rating-cards" }, cards.length ? cards : h("p", {}, t("profile.no_ratings"))),
      h("h3", {}, t("profile.recent")),
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
  const GAMES = ["geister", "ghooost", "thelast"];
  if (!GAMES.includes(game)) game = GAMES[0];
  const rows = [];
  let next = 0;
  const body = h("div", { class: "ratings-page" });
  root.append(body);
  const list = h("tbody");
  const more = h("button", { type: "button", class: "ratings-more", hidden: true, onclick: () => load() }, t("profile.more"));
  const note = h("p", { role: "status" });

  async function load() {
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
      h("h2", {}, t("rating.title", { game: t(`game.${game}`) })),
      h("nav", { class: "ratings-games" }, GAMES.map((g) => h("a", { href: `/ratings/${g}`, "aria-current": g === game ? "page" : null }, t(`game.${g}`)))),
      rows.length ? h("table", { class: "leaderboard" },
        h("thead", {}, h("tr", {}, ...["rating.place", "rating.player", "rating.rating", "rating.games", "rating.wins"].map((key) => h("th", {}, t(key))))),
        list) : h("p", { class: "empty" }, t("rating.empty")),
      more, note);
    more.hidden = next === null;
  }

  onLanguageChange(draw);
  await load();
}
