// Entry point: language first, then the one WebSocket, then the page the address asks for
// (/ is the lobby, /table/{id} a table, /player/{name}, /ratings/{game} and /replay/{id} the players'
// pages, /learn/{game}[/{lesson}] a tutorial; the server answers them all with this index.html).

import { h } from "./dom.js";
import { onLanguageChange, preferredLanguage, setLanguage, t } from "./i18n.js";
import { Connection, session } from "./net.js";
import { settingsMenu } from "./settings.js";

async function main() {
  await setLanguage(preferredLanguage());
  const connection = new Connection();
  document.getElementById("picker-slot").append(settingsMenu(connection));
  const status = document.getElementById("connection");
  let lastStatus = "connecting";
  const showStatus = () => {
    status.textContent = t(`status.${lastStatus}`);
    status.dataset.status = lastStatus;
  };
  connection.onStatus((value) => {
    lastStatus = value;
    showStatus();
  });
  const whoami = document.getElementById("whoami");
  const showUser = () => {
    whoami.textContent = connection.user ? t("ui.playing_as", { name: connection.user.name }) : "";
    if (connection.user && !connection.user.guest) {
      whoami.append(" ", h("a", { class: "my-profile", href: `/player/${encodeURIComponent(connection.user.name)}` }, t("nav.profile")));
    }
  };
  connection.onOpen(showUser);
  onLanguageChange(() => {
    showStatus();
    showUser();
    document.title = t("ui.title");
  });
  document.title = t("ui.title");

  const page = document.getElementById("page");
  const match = location.pathname.match(/^\/table\/([^/]+)\/?$/);
  const home = location.pathname.match(/^\/(player|ratings|replay)\/([^/]+)\/?$/);
  const learn = location.pathname.match(/^\/learn\/([^/]+)(?:\/([^/]+))?\/?$/);
  if (learn) {
    const { tutorialPage } = await import("./tutorial.js");
    tutorialPage(page, connection, decodeURIComponent(learn[1]), learn[2] ? decodeURIComponent(learn[2]) : null);
  } else if (home) {
    const pages = await import("./profile.js");
    const { replayPage } = home[1] === "replay" ? await import("./replay.js") : {};
    const show = { player: pages.profilePage, ratings: pages.ratingsPage, replay: replayPage }[home[1]];
    show(page, connection, decodeURIComponent(home[2]));
  } else if (match) {
    const { tablePage } = await import("./table.js");
    tablePage(page, connection, decodeURIComponent(match[1]));
  } else {
    const { lobbyPage } = await import("./lobby.js");
    lobbyPage(page, connection);
  }
  connection.connect();
  window.ghostgames = { connection, session };
}

main();
