"""Imports point one way: every module of src/ghostgames imports only its own folder and the folders the
README's `layers` block lists for it. The block is read from the README itself, so the words and the code
cannot drift apart; a new folder must be added to it before its modules pass."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "ghostgames"
GAMES = ("geister", "ghooost", "thelast")
TOP_MODULES = {"__init__", "__main__", "cli"}  # the package's own entry points sit above every folder
# any other module beside the folders sits below them all: it imports nothing of ours, and any folder may import it


def stated_layers(readme: str) -> dict[str, set[str]]:
    """The README's ```layers block: `folder -> allowed folders`, one line each."""
    block = re.search(r"```layers\n(.*?)```", readme, re.S)
    assert block is not None, "the README has no ```layers block"
    layers: dict[str, set[str]] = {}
    for line in block.group(1).strip().splitlines():
        folder, _, allowed = line.partition("->")
        layers[folder.strip()] = set(allowed.split())
    return layers


def module_name(path: Path, package: Path) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path, package: Path) -> list[tuple[int, str]]:
    """Every module of our package that `path` imports, anywhere in the file (functions and TYPE_CHECKING
    blocks included), as (line, dotted name); relative imports resolved."""
    here = module_name(path, package).split(".")
    if path.name != "__init__.py":
        here.pop()  # a relative import starts from the module's package
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                start = here[: len(here) - node.level + 1]
                base = ".".join([*start, base] if base else start)
            # `from ghostgames import tables` imports a folder: name it whole
            found.extend((node.lineno, f"{base}.{alias.name}") for alias in node.names)
    return [(line, name) for line, name in found if name.split(".")[0] == package.name]


def violations(package: Path, layers: dict[str, set[str]]) -> list[str]:
    """Each import that breaks the layering, as `file:line imports name (why)`."""
    problems: list[str] = []
    below = {path.stem for path in package.glob("*.py") if path.stem not in TOP_MODULES}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package).parts
        if len(parts) == 1:
            if path.stem not in TOP_MODULES:
                problems.extend(f"{path.name}:{line} imports {name} (a module beside the folders imports nothing"
                                " of ours)" for line, name in imported_modules(path, package))
            continue
        folder = parts[0]
        if folder not in layers:
            problems.append(f"{path.relative_to(package)}: the folder {folder}/ is not in the README's layers")
            continue
        for line, name in imported_modules(path, package):
            target = name.split(".")
            if len(target) < 2:
                continue
            other = target[1]
            where = f"{path.relative_to(package)}:{line} imports {name}"
            if other in below:
                continue
            if other != folder and other not in layers[folder]:
                problems.append(f"{where} ({folder}/ may import only {', '.join(sorted(layers[folder])) or 'itself'})")
            elif folder == other == "games" and len(parts) > 2 and len(target) > 2 and target[2] != parts[1]:
                problems.append(f"{where} (a game imports only its own folder and rules/)")
    return problems


def test_the_readme_states_a_layer_for_every_folder() -> None:
    layers = stated_layers((ROOT / "README.md").read_text(encoding="utf-8"))
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and any(p.rglob("*.py"))}
    assert folders == set(layers), "the layers block and the folders of src/ghostgames differ"
    for folder, allowed in layers.items():
        assert allowed <= set(layers), f"{folder} -> names a folder that does not exist"
        assert folder not in allowed


def test_the_stated_layers_have_no_cycle() -> None:
    layers = stated_layers((ROOT / "README.md").read_text(encoding="utf-8"))
    done: set[str] = set()
    while len(done) < len(layers):
        ready = [f for f in layers if f not in done and layers[f] <= done]
        assert ready, f"the layers form a cycle among {sorted(set(layers) - done)}"
        done.update(ready)


def test_every_import_follows_the_readmes_layers() -> None:
    layers = stated_layers((ROOT / "README.md").read_text(encoding="utf-8"))
    assert violations(PACKAGE, layers) == []


def test_the_checker_catches_a_planted_upward_import(tmp_path: Path) -> None:
    """The same check on a small planted package: an upward import hidden in a function, a relative one,
    one game importing another, a module beside the folders that imports ours, and a folder importing an
    entry point are each reported; allowed ones (a game importing a module beside the folders) are not."""
    package = tmp_path / "ghostgames"
    files = {
        "__init__.py": "",
        "loose.py": "import ghostgames.rules.record\n",
        "below.py": "",
        "cli.py": "",
        "rules/__init__.py": "",
        "rules/record.py": "def new_state():\n    from ghostgames.games import get_game\n    return get_game\n",
        "rules/options.py": "from . import record\nfrom ..tables import seats\n",
        "tables/__init__.py": "",
        "tables/seats.py": "from ghostgames.rules import record\nfrom ghostgames import games\n",
        "tables/votes.py": "from ghostgames.below import helper\nfrom ghostgames.cli import main\n",
        "games/__init__.py": "",
        "games/geister/__init__.py": "from ghostgames.games.ghooost import cards\n",
        "games/geister/fast.py": "from ghostgames.below import helper\nimport ghostgames.below\n",
        "games/ghooost/cards.py": "from ghostgames.games.ghooost import cards\nimport ghostgames.rules.record\n",
    }
    for name, text in files.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text)
    layers = {"rules": set(), "games": {"rules"}, "tables": {"games", "rules"}}
    found = violations(package, layers)
    assert len(found) == 5, found
    assert found[0] == ("games/geister/__init__.py:1 imports ghostgames.games.ghooost.cards"
                        " (a game imports only its own folder and rules/)")
    assert found[1] == ("loose.py:1 imports ghostgames.rules.record"
                        " (a module beside the folders imports nothing of ours)")
    assert found[2].startswith("rules/options.py:2 imports ghostgames.tables.seats ")
    assert found[3].startswith("rules/record.py:2 imports ghostgames.games.get_game ")
    assert found[4].startswith("tables/votes.py:2 imports ghostgames.cli.main ")
