"""The package's layout: no import circles, between modules or between packages.

The import graph is read from the source (:mod:`ast`): every ``import`` and ``from ... import``
of a compreport module, the lazy ones inside functions included, since a lazy import that only
hides a circle is still a circle. ``from compreport.x import y`` is an edge to ``compreport.x.y``
when that is a module, else to ``compreport.x``. The package ``compreport`` itself (the public
API, which imports the rest) is left out of the package graph.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "compreport"


def modules() -> dict[str, Path]:
    """Every module of compreport by dotted name (a package by its ``__init__.py``)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def import_graph() -> dict[str, set[str]]:
    """Module -> the compreport modules it imports."""
    mods = modules()
    graph = {}
    for name, path in mods.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for a in node.names:
                    sub = f"{node.module}.{a.name}"
                    found.add(sub if sub in mods else node.module)
        graph[name] = {m for m in found if m in mods and m != name}
    return graph


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The same graph between compreport's packages and top-level modules (``compreport.inputs``,
    ``compreport.settings``), without ``compreport`` itself."""

    def unit(module: str) -> str:
        return ".".join(module.split(".")[:2])

    out: dict[str, set[str]] = {}
    for a, targets in graph.items():
        if unit(a) != "compreport":
            out.setdefault(unit(a), set()).update(
                unit(b) for b in targets if unit(b) not in ("compreport", unit(a))
            )
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` with more than one node (Tarjan), each
    sorted: every node of one reaches every other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def shown(graph: dict[str, set[str]], found: list[list[str]]) -> str:
    """Each circle with the imports inside it, one line per module."""
    lines = []
    for component in found:
        inside = set(component)
        lines.append("circle: " + ", ".join(component))
        lines += [f"  {m} -> {', '.join(sorted(graph[m] & inside))}" for m in component]
    return "\n".join(lines)


def test_the_graph_is_read():
    """The reader finds imports of every kind: top-level, lazy, of a module and of a name."""
    graph = import_graph()
    assert "compreport.inputs.spec" in graph["compreport.api"]  # lazy, inside load()
    assert "compreport.errors" in graph["compreport.settings"]  # a name from a module
    assert "compreport.stats.resampling" in graph["compreport.stats.analysis"]  # a module
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_imports_itself_through_others():
    graph = import_graph()
    found = cycles(graph)
    assert not found, shown(graph, found)


def test_no_package_imports_itself_through_others():
    """inputs, output, language, stats, report and the top-level modules import one another one
    way only (stats reads inputs' Competition, inputs never import stats)."""
    graph = package_graph(import_graph())
    found = cycles(graph)
    assert not found, shown(graph, found)
