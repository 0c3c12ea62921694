"""The package's import graph: no circles, imports at the top of each module, and an import inside a
function only where it keeps a command's start-up light, saying so.

The graph is read from the source with Python's own parser (nothing is imported): an edge for every
``import``/``from ... import`` of a ``ludex`` module at a module's top level; ``from . import x`` is an
edge to the module ``x`` when ``x`` is one, else to the package.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "interpreter" / "ludex"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


@lru_cache(maxsize=None)
def parsed(path: Path) -> ast.Module:
    """A module's syntax tree, read once for the tests here (each reads every module)."""
    return ast.parse(path.read_text(encoding="utf-8"))


def is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def targets(name: str, node: ast.stmt) -> list[str]:
    """The ludex modules an import statement of module ``name`` loads."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.split(".")[0] == "ludex"]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        base = name.split(".") if is_package(name) else name.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    if source.split(".")[0] != "ludex":
        return []
    found = [f"{source}.{a.name}" for a in node.names if f"{source}.{a.name}" in MODULES]
    return found or [source]


def top_level_imports(tree: ast.Module):
    """The module's own imports: its top level, and inside ``if``/``try`` there (not under
    ``if TYPE_CHECKING``, which never runs)."""
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
            yield from (n for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom)))
        elif isinstance(node, ast.Try):
            yield from (n for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom)))


def graph() -> dict[str, set[str]]:
    edges = {}
    for name, path in MODULES.items():
        tree = parsed(path)
        edges[name] = {t for node in top_level_imports(tree) for t in targets(name, node)} - {name}
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in edges:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_import_graph_has_no_circle():
    edges = graph()
    assert "ludex.engine.game" in edges and edges["ludex.cli"], "the graph was read"
    assert circles(edges) == []


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_imports_sit_at_the_top_of_each_module():
    late = []
    for name, path in MODULES.items():
        tree = parsed(path)
        seen_code = False
        for node in tree.body:
            is_import = isinstance(node, (ast.Import, ast.ImportFrom))
            is_docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            if is_import and seen_code:
                late.append(f"{MODULES[name].relative_to(PACKAGE.parent)}:{node.lineno}")
            seen_code = seen_code or not (is_import or is_docstring or isinstance(node, (ast.If, ast.Try)))
    assert late == []


def test_an_import_inside_a_function_says_why():
    """A ludex module imported inside a function is there to keep a command's start-up light: the line,
    or a comment above it (over a run of such imports), says so."""
    silent = []
    for name, path in MODULES.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = parsed(path)
        for fn in (n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))):
            for node in ast.walk(fn):
                if isinstance(node, (ast.Import, ast.ImportFrom)) and targets(name, node):
                    above = node.lineno - 2
                    while lines[above].strip().startswith(("from ", "import ")):
                        above -= 1
                    if "#" not in lines[node.lineno - 1] and not lines[above].strip().startswith("#"):
                        silent.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {lines[node.lineno - 1].strip()}")
    assert silent == []
