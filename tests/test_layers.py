"""The layer rule of DESIGN.md, read from the imports of every module under bot/ and cogs/.

bot/engine and bot/ai import nothing from discord, asyncio or aiosqlite; bot/tables and
bot/storage import no discord; bot/engine imports nothing from the other bot packages, so
the rules can run from a script, a test or a benchmark with no event loop.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODULES = sorted(
    path
    for package in ("bot", "cogs")
    if (ROOT / package).is_dir()
    for path in (ROOT / package).rglob("*.py")
)

ASYNC_AND_DISCORD = {"discord", "asyncio", "aiosqlite"}
# What each layer must not import, by the top-level name (or the bot package) imported.
FORBIDDEN = {
    "bot/engine": ASYNC_AND_DISCORD
    | {
        "bot.ai",
        "bot.tables",
        "bot.storage",
        "bot.ui",
        "cogs",
        "bot.client",
        "bot.config",
        "bot.runner",
        "bot.__main__",
    },
    "bot/ai": ASYNC_AND_DISCORD | {"bot.tables", "bot.storage", "bot.ui", "cogs"},
    "bot/leagues": ASYNC_AND_DISCORD | {"bot.tables", "bot.storage", "bot.ui", "cogs"},
    "bot/tables": {"discord", "bot.ui", "cogs"},
    "bot/storage": {"discord", "bot.ui", "cogs"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(source: str, package: str) -> set[str]:
    """Every module some source imports, absolute; relative imports resolved against `package`."""
    parts = package.split(".")
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = parts[: len(parts) - node.level + 1]
                module = ".".join(base + ([module] if module else []))
                if not node.module:  # from .. import x: each x may be a module
                    names.update(f"{module}.{alias.name}" for alias in node.names)
            names.add(module)
    return names


def imported_names(path: Path) -> set[str]:
    package = module_name(path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    return imports_of(path.read_text(encoding="utf-8"), package)


def breaks(name: str, forbidden: set[str]) -> bool:
    return any(name == f or name.startswith(f + ".") for f in forbidden)


def layer_of(path: Path) -> str | None:
    rel = path.relative_to(ROOT).as_posix()
    return next((layer for layer in FORBIDDEN if rel.startswith(layer + "/")), None)


def test_every_layer_is_found():
    rels = {p.relative_to(ROOT).as_posix() for p in MODULES}
    assert any(r.startswith("bot/engine/") for r in rels)
    assert "bot/engine/deal.py" in rels


# bot/ui, cogs and the entry points may import discord: only the layers below them are checked.
LAYERED = [path for path in MODULES if layer_of(path) is not None]


@pytest.mark.parametrize("path", LAYERED, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_layer_rule(path):
    layer = layer_of(path)
    wrong = sorted(n for n in imported_names(path) if breaks(n, FORBIDDEN[layer]))
    assert not wrong, f"{path.relative_to(ROOT)} ({layer}) imports {', '.join(wrong)}"


def test_relative_imports_are_resolved():
    """The checker itself: a relative import in the engine counts as the module it names."""
    source = "from .cards import JOKER\nfrom .. import ai\nimport discord.ui\nfrom ..storage.db import x\n"
    assert imports_of(source, "bot.engine") == {
        "bot.engine.cards",
        "bot",
        "bot.ai",
        "discord.ui",
        "bot.storage.db",
    }
    assert "bot.engine.cards" in imported_names(ROOT / "bot" / "engine" / "deal.py")
    assert breaks("discord.ui", {"discord"}) and not breaks("discordant", {"discord"})
    assert breaks("bot.ai.easy", {"bot.ai"}) and not breaks("bot.aim", {"bot.ai"})
