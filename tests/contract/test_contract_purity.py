"""Engine purity of every game module: the files of its ``engine/`` package (or its ``engine.py``) and every
first-party file they import, transitively, import no Django, DRF, Celery or kombu — read with ``ast`` from the
source, so a module's engine is pure by where it lives, with no list to keep."""
from __future__ import annotations

import ast
from pathlib import Path

from tests.contract.conftest import ROOT

BANNED = ("django", "rest_framework", "celery", "kombu")
FIRST_PARTY = ("gm", "cards", "accounts")


def engine_files(folder: Path) -> list[Path]:
    """The engine of the module package in ``folder``: every ``.py`` under ``engine/``, or ``engine.py``."""
    if (folder / "engine").is_dir():
        return sorted((folder / "engine").rglob("*.py"))
    return [folder / "engine.py"] if (folder / "engine.py").is_file() else []


def dotted(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def source_of(name: str, root: Path) -> Path | None:
    """The file that defines first-party module ``name`` under ``root``, if any."""
    base = root.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imported_names(path: Path, root: Path) -> set[str]:
    """Dotted names ``path`` imports (relative imports made absolute; ``from a import b`` gives ``a`` and
    ``a.b``), leaving out what only type checkers read (``if TYPE_CHECKING:``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = dotted(path, root)
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    skipped = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and _type_checking(node)
               for child in node.body for n in ast.walk(child)}
    names = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            names.add(module)
            names |= {f"{module}.{alias.name}" for alias in node.names}
    return names


def impure_imports(files: list[Path], root: Path, package: str) -> list[str]:
    """``"file → name"`` for every banned import reached from ``files``, following first-party imports (and the
    ``__init__`` of each package between a file and ``package``) transitively."""
    found, seen, todo = [], set(), list(files)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        name = dotted(path, root)
        parents = name.split(".")
        for i in range(len(package.split(".")), len(parents)):
            init = source_of(".".join(parents[:i]), root)
            if init is not None and init.name == "__init__.py":
                todo.append(init)
        for imported in imported_names(path, root):
            top = imported.split(".")[0]
            if top in BANNED:
                found.append(f"{path.relative_to(root)} → {imported}")
            elif top in FIRST_PARTY:
                target = source_of(imported, root)
                if target is not None:
                    todo.append(target)
    return sorted(found)


def test_contract_engine_imports_no_framework(gm_module):
    files = engine_files(gm_module.folder)
    assert files, f"{gm_module}: no engine/ package nor engine.py in {gm_module.folder}"
    found = impure_imports(files, ROOT, gm_module.package)
    assert not found, f"{gm_module}'s engine imports a framework: {found}"


def test_contract_purity_check_finds_an_indirect_framework_import(gm_module, tmp_path):
    """Self-test: an engine file that reaches Django through a helper of its package is reported (for each module's
    layout: ``engine/`` or ``engine.py``)."""
    package = tmp_path / "gm" / "modules" / "fake"
    package.mkdir(parents=True)
    for folder in (tmp_path / "gm", tmp_path / "gm" / "modules", package):
        (folder / "__init__.py").write_text("")
    (package / "helpers.py").write_text("from django.utils import timezone\n")
    if (gm_module.folder / "engine").is_dir():
        (package / "engine").mkdir()
        (package / "engine" / "__init__.py").write_text("")
        (package / "engine" / "rules.py").write_text("from ..helpers import timezone\n")
    else:
        (package / "engine.py").write_text("from .helpers import timezone\n")
    found = impure_imports(engine_files(package), tmp_path, "gm.modules.fake")
    assert found == ["gm/modules/fake/helpers.py → django.utils", "gm/modules/fake/helpers.py → django.utils.timezone"]
