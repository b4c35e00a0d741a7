"""No import circle among the project's modules (docs/style.md §1: imports point one way).

The graph comes from ``grimp`` (the engine of import-linter), which reads every ``import``
statement of every module, function-level imports included: a late import inside a
function hides a circle from Python at load time, not from this test. Every top-level
package of the repository (a directory with ``__init__.py``, ``tests`` aside) is scanned,
so a new app is checked without editing this file.
"""

from __future__ import annotations

from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = sorted(p.parent.name for p in ROOT.glob("*/__init__.py") if p.parent.name != "tests")


def import_circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Every group of modules that import each other round a circle (the strongly
    connected components of more than one module, or a module importing itself), each
    sorted; found with Tarjan's algorithm, iteratively (no recursion limit)."""
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges.get(child, ()))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in edges.get(node, ()):
                    circles.append(sorted(component))
    return circles


def _describe(graph: grimp.ImportGraph, circle: list[str]) -> str:
    members = set(circle)
    lines = [" <-> ".join(circle)]
    for importer in circle:
        for imported in sorted(graph.find_modules_directly_imported_by(importer) & members):
            for detail in graph.get_import_details(importer=importer, imported=imported):
                lines.append(f"    {importer}:{detail['line_number']}: "
                             f"{detail['line_contents']}")
    return "\n".join(lines)


def test_the_project_packages_are_found():
    assert {"games", "accounts", "killgame", "diceslayer", "sanguosha"} <= set(PACKAGES)


def test_the_detector_finds_a_circle_made_by_a_function_level_import():
    graph = grimp.ImportGraph()
    graph.add_import(importer="pkg.a", imported="pkg.b", line_number=1, line_contents="import b")
    graph.add_import(importer="pkg.b", imported="pkg.c", line_number=1, line_contents="import c")
    graph.add_import(importer="pkg.c", imported="pkg.a", line_number=9,
                     line_contents="from pkg import a  # inside a function")
    graph.add_import(importer="pkg.c", imported="pkg.d", line_number=2, line_contents="import d")
    assert import_circles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]


def test_grimp_sees_function_level_imports():
    # games.apps imports games.tasks inside ready(): the graph must hold that edge
    graph = grimp.build_graph("games", cache_dir=None)
    assert "games.tasks" in graph.find_modules_directly_imported_by("games.apps")


def test_no_import_circle_among_the_project_modules():
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    circles = import_circles(graph)
    assert not circles, "import circles (function-level imports count):\n" + "\n".join(
        _describe(graph, c) for c in circles)
