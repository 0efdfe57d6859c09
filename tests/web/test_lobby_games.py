"""The lobby's tiles are the games the server lists, and a game newer than the page's catalogs and
pictures still gets a tile that names it: the server's title, a ghost for a picture. So a new game needs
no edit in lobby.js."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, expect

from tests.server.harness import ServerProcess
from tests.web.pages import enter_as_guest


def test_there_is_a_tile_for_each_game_the_server_lists(server: ServerProcess, browser: Browser) -> None:
    listed = [game["name"] for game in server.get("/api/games")]
    assert len(listed) >= 3
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    enter_as_guest(page, server.http_url, "Tilda")
    expect(page.locator(".game-tile")).to_have_count(len(listed))
    assert page.locator(".game-tile").evaluate_all("tiles => tiles.map((tile) => tile.dataset.game)") == listed
    expect(page.locator(".game-tile[data-game=thelast] h3")).to_have_text("The Last")  # the catalog's words
    context.close()


def test_a_game_unknown_to_the_page_is_named_by_the_server_and_drawn_as_a_ghost(server: ServerProcess,
                                                                                 browser: Browser) -> None:
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    enter_as_guest(page, server.http_url, "Tomas")
    seen: dict[str, Any] = page.evaluate("""async () => {
      const lobby = await import("/lobby.js");
      const listed = [{ name: "fourth", title: "The Fourth Game" }];
      const picture = (name) => {
        const svg = lobby.gamePicture(name);
        return { ghosts: svg.querySelectorAll(".tile-ghost").length, cards: svg.querySelectorAll(".tile-card").length };
      };
      return { title: lobby.gameTitle("fourth", listed), bare: lobby.gameTitle("fifth", listed),
               known: lobby.gameTitle("ghooost", listed), fourth: picture("fourth"), thelast: picture("thelast") };
    }""")
    assert seen["title"] == "The Fourth Game"
    assert seen["bare"] == "fifth"  # nothing better to show than its name
    assert seen["known"] == "Ghooost!"
    assert seen["fourth"] == {"ghosts": 1, "cards": 0}  # not The Last's cards, as before
    assert seen["thelast"] == {"ghosts": 0, "cards": 3}
    context.close()
