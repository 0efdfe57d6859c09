"""bots/ holds what plays and learn/ what trains: the arrow points one way, so a server that only plays
never loads the training code."""

from __future__ import annotations

import ast
from pathlib import Path

import ghostgames

SRC = Path(ghostgames.__file__).parent


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_nothing_outside_learn_and_the_train_command_imports_learn() -> None:
    allowed = {SRC / "commands" / "train.py"}
    offenders = [
        str(path.relative_to(SRC))
        for path in SRC.rglob("*.py")
        if SRC / "learn" not in path.parents and path not in allowed
        and any(name == "ghostgames.learn" or name.startswith("ghostgames.learn.") for name in _imports(path))
    ]
    assert offenders == []
    assert any(SRC / "bots" in p.parents for p in SRC.rglob("*.py"))  # the walk saw the bots
