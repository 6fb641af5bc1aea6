"""No module state outlives a call unless it says why: DESIGN's "stages share no module state".

The source of compreport is read with :mod:`ast` for what a module keeps between calls:

* a module-level name bound to a mutable container (a ``dict``, ``list`` or ``set`` display or
  comprehension, or a call of ``dict``, ``list``, ``set``, ``defaultdict``, ``OrderedDict``,
  ``Counter``, ``deque``, ``bytearray``, ``ContextVar`` or ``str.maketrans``, which makes a
  dict);
* a class attribute bound to one without an annotation (an annotated one is a dataclass or
  pydantic field, which those libraries copy per instance or refuse);
* a function wrapped in ``functools.cache`` or ``functools.lru_cache``;
* a ``global`` statement.

Each must be immutable (a constant table is a ``MappingProxyType``, a ``frozenset`` or a tuple),
or be preceded by a ``#: Cache:`` comment saying what it caches, why that is safe (keyed by its
inputs, never read as state) and how big it gets, or be in :data:`ALLOWED` with the reason it
must stay. ``__all__`` (read by ``import *`` and by tools, never changed) is left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "compreport"

MUTABLE_CALLS = {
    "dict",
    "list",
    "set",
    "defaultdict",
    "OrderedDict",
    "Counter",
    "deque",
    "bytearray",
    "ContextVar",
    "maketrans",
}
MUTABLE_NODES = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)
CACHES = {"cache", "lru_cache"}

#: State that must outlive a call, by "module:name", and why.
ALLOWED = {
    # The signal handlers record a stop for the run's checkpoints to raise: a handler gets no
    # argument to pass it in, so the record is the process's.
    "compreport/interrupts.py:_PENDING": "signal handlers' record of a stop",
    "compreport/interrupts.py:_DEFERRED": "depth of the blocks that hold signals back",
    # The output directories this process has claimed (locked): a claim of an OUT already held
    # is re-entered rather than locked twice, wherever in the process it is asked for.
    "compreport/output/staging.py:_HELD": "this process's locks on output directories",
    # A forked worker's initializer keeps what the pool hands it (the function, the shared
    # value, the items, the caller's context): multiprocessing has no other way in.
    "compreport/workers.py:global _INHERITED": "what a forked worker inherited",
    # The warnings module's record of what a "once" or "default" filter has shown, for the
    # warnings held back and raised again: the stand-in for the __warningregistry__ every
    # module has, so that such a filter still shows a warning once.
    "compreport/report/figures/glyphs.py:_SHOWN": "the warnings registry of re-raised warnings",
    # Counted patches of matplotlib's module attributes, which are the process's by nature:
    # nested blocks and threads share one patch, and the last out puts the originals back.
    "compreport/report/figures/style.py:_PATCH": "the depth of the lean PDF fonts patch",
    "compreport/report/figures/style.py:_METRICS": "the depth of the shared text metrics patch",
    # The language of the words and the decimal comma: the one documented ContextVar pair
    # (issue 37), set by `Report(lang=)` / `--lang` around a rendering.
    "compreport/language/__init__.py:_LANG": "the language of the words",
    "compreport/language/__init__.py:_COMMA": "the decimal comma of that language",
}


def _call_name(node: ast.expr) -> str | None:
    """The name a call or decorator calls: ``cache`` for ``functools.cache`` and ``cache``."""
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute):
        return target.attr
    return None


def _mutable(value: ast.expr | None) -> bool:
    """Whether ``value`` makes a mutable container."""
    if isinstance(value, MUTABLE_NODES):
        return True
    return isinstance(value, ast.Call) and _call_name(value) in MUTABLE_CALLS


def _names(node: ast.Assign | ast.AnnAssign) -> list[str]:
    """The names an assignment binds."""
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    return [ast.unparse(t) for t in targets]


def _comment_above(lines: list[str], lineno: int) -> str:
    """The block of ``#`` comment lines right above line ``lineno`` (1-based), joined."""
    block = []
    i = lineno - 2
    while i >= 0 and lines[i].lstrip().startswith("#"):
        block.append(lines[i].strip())
        i -= 1
    return "\n".join(reversed(block))


def _findings(source: str) -> list[tuple[str, int]]:
    """``(what, line)`` of each piece of module state in ``source``: ``name``, ``Class.name``,
    ``function()`` (a cached one) or ``global name``."""
    tree = ast.parse(source)
    found = []
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and _mutable(node.value):
            found += [(n, node.lineno) for n in _names(node) if n != "__all__"]
        if isinstance(node, ast.ClassDef):
            found += [
                (f"{node.name}.{n}", s.lineno)
                for s in node.body
                if isinstance(s, ast.Assign) and _mutable(s.value)
                for n in _names(s)
            ]
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            found += [(f"global {n}", node.lineno) for n in node.names]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            cached = [d for d in node.decorator_list if _call_name(d) in CACHES]
            if cached:
                found.append((f"{node.name}()", cached[0].lineno))
    return found


def module_state() -> dict[str, str]:
    """Every piece of module state under compreport/: ``"path:name"`` -> the comment above it."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        rel = path.relative_to(PACKAGE.parent).as_posix()
        for what, lineno in _findings(source):
            out[f"{rel}:{what}"] = _comment_above(lines, lineno)
    return out


def test_module_state_is_a_documented_cache_or_allowed():
    unexplained = sorted(
        key
        for key, comment in module_state().items()
        if "#: Cache:" not in comment and key not in ALLOWED
    )
    assert unexplained == [], (
        "module state that is neither immutable (MappingProxyType, frozenset, tuple), nor a "
        "'#: Cache:' (what, why safe, how big), nor in ALLOWED: " + ", ".join(unexplained)
    )


def test_allowances_are_still_there():
    """Each allowance names state that exists, so the list shrinks when the state goes."""
    assert set(ALLOWED) <= set(module_state())


def test_the_scan_sees_what_it_must():
    source = (
        "import functools\n"
        "A = {}\n"
        "#: Cache: of nothing\n"
        "B = []\n"
        "C = (1, 2)\n"
        "__all__ = ['x']\n"
        "class K:\n"
        "    r = {}\n"
        "    f: list = []\n"
        "@functools.cache\n"
        "def g():\n"
        "    global A\n"
    )
    found = {what for what, _ in _findings(source)}
    assert found == {"A", "B", "K.r", "g()", "global A"}
