"""The five translation catalogs and help pages: every key in every language, the same placeholders,
every key the client code asks for, every server error code, every game option, every help page."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from ghostgames.games import get_game

WEB = Path(__file__).resolve().parents[2] / "src" / "ghostgames" / "web"
PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
LANGUAGES = ("en", "fr", "de", "ko", "uk")
# The plural forms each language has (Unicode CLDR, as the browser's Intl.PluralRules names them): a text
# that counts is stored as `key#form`, once per form of that language.
PLURAL_FORMS = {"en": {"one", "other"}, "fr": {"one", "many", "other"}, "de": {"one", "other"}, "ko": {"other"},
                "uk": {"one", "few", "many", "other"}}
GAMES = ("geister", "ghooost", "thelast")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalog(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def test_languages_offered_by_the_picker_are_the_five_catalogs() -> None:
    source = (WEB / "i18n.js").read_text(encoding="utf-8")
    offered = re.search(r"LANGUAGES = \[([^\]]+)\]", source)
    assert offered is not None
    assert tuple(re.findall(r'"(\w+)"', offered.group(1))) == LANGUAGES


def base(key: str) -> str:
    """`ghooost.points#few` -> `ghooost.points`: the key the code asks for."""
    return key.split("#", 1)[0]


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_key_exists_in_every_language(lang: str) -> None:
    english, other = {base(k) for k in catalog("en")}, {base(k) for k in catalog(lang)}
    assert sorted(english - other) == []
    assert sorted(other - english) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_counting_text_has_every_plural_form_of_its_language(lang: str) -> None:
    texts = catalog(lang)
    counting = {base(k) for k in texts if "#" in k}
    assert "ghooost.log.take" in counting and "table.waiting_players" in counting
    for key in counting:
        forms = {k.split("#", 1)[1] for k in texts if base(k) == key and "#" in k}
        assert forms == PLURAL_FORMS[lang], f"{lang}:{key} has forms {sorted(forms)}"
        assert key not in texts, f"{lang}:{key} is both a plain and a counting text"
        assert all("{n}" in texts[f"{key}#{form}"] for form in forms), f"{lang}:{key} needs {{n}} in every form"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_keep_the_placeholders_and_are_not_empty(lang: str) -> None:
    english, other = catalog("en"), catalog(lang)
    english_args = {base(k): set(PLACEHOLDER.findall(v)) for k, v in english.items()}
    for key, text in other.items():
        assert text.strip(), f"{lang}:{key} is empty"
        assert set(PLACEHOLDER.findall(text)) == english_args[base(key)], f"{lang}:{key}"


def test_every_key_the_client_code_names_is_in_the_catalog() -> None:
    english = catalog("en")
    used: set[str] = set()
    for path in WEB.rglob("*.js"):  # the pages, their parts (table_page/) and the games
        source = path.read_text(encoding="utf-8")
        used.update(re.findall(r'\bt\("([\w.]+)"', source))
        used.update(re.findall(r'data-i18n(?:-[\w-]+)?="([\w.]+)"', source))
    used.update(re.findall(r'data-i18n="([\w.]+)"', (WEB / "index.html").read_text(encoding="utf-8")))
    assert len(used) > 100
    assert sorted(used - {base(k) for k in english}) == []


def test_every_server_error_code_has_a_translation() -> None:
    codes = re.findall(r"^\| `(\w+)` \|", PROTOCOL.read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert "illegal_action" in codes and "stale_version" in codes
    english = catalog("en")
    assert sorted(code for code in codes if f"error.{code}" not in english) == []


@pytest.mark.parametrize("game", GAMES)
def test_every_game_option_and_choice_has_a_label(game: str) -> None:
    english = catalog("en")
    schema: dict[str, Any] = get_game(game).options_schema()
    assert schema or game == "none"
    for name, spec in schema.items():
        assert f"option.{game}.{name}" in english
        assert f"option.{game}.{name}.help" in english
        for choice in spec.get("choices", []):
            if isinstance(choice, str):
                assert f"choice.{choice}" in english, choice


def test_every_command_the_chat_completes_has_a_description() -> None:
    english = catalog("en")
    chat = (WEB / "chat.js").read_text(encoding="utf-8")
    commands = re.findall(r'"(\w+)"', re.search(r"TABLE_COMMANDS = \[([^\]]+)\]", chat).group(1))  # type: ignore[union-attr]
    for path in WEB.glob("games/*.js"):
        found = re.search(r"commands: \[([^\]]+)\]", path.read_text(encoding="utf-8"))
        assert found is not None, path.name
        commands += re.findall(r'"(\w+)"', found.group(1))
    assert sorted(name for name in set(commands) if f"cmd.{name}" not in english) == []


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.lang: str | None = None
        self.svgs = 0
        self.links: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "html":
            self.lang = values.get("lang")
        if tag == "svg" or (tag == "img" and str(values.get("src", "")).endswith(".svg")):
            self.svgs += 1
        if tag == "a" and values.get("href"):
            self.links.append(str(values["href"]))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_a_help_page_per_game_and_language_with_pictures_and_an_example_turn(lang: str, game: str) -> None:
    page = WEB / "help" / lang / f"{game}.html"
    parser = _Text()
    parser.feed(page.read_text(encoding="utf-8"))
    assert parser.lang == lang
    assert parser.svgs >= 2, "pictures of the components"
    assert 'class="example"' in page.read_text(encoding="utf-8"), "an example turn"
    assert len(" ".join(parser.text).split()) > 150
    for other in LANGUAGES:  # the language picker of a help page: every language's version of it
        assert f"../{other}/{game}.html" in parser.links
