"""Imports flow one way (issue 38, §5).

What the stages and the mechanisms share sits below both; the registry lists the mechanisms and
nothing imports it from below. Read from the sources with ``ast``: every import of one of the
project's modules, at the top of a module or inside a function (an import moved into a function
still needs the module: moving it there to dodge a cycle keeps the cycle), blocks under
``if TYPE_CHECKING:`` left out (they run only in a type checker).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("compiler", "play")

# The modules below the mechanisms: what a mechanism may import besides its own folder, the
# contract (`mechanisms.base`, `mechanisms.state`, `mechanisms.used`) and the folders of the mechanisms it builds on.
BELOW_THE_MECHANISMS = {
    "compiler.diagnostics",
    "compiler.french",
    "compiler.frontend",
    "compiler.frontend.positions",
    "compiler.frontend.text",
    "compiler.ir",
    "compiler.ir.ids",
    "compiler.ir.action_space",
    "compiler.emit",
    "compiler.emit.escape",
    "compiler.emit.worked",
}
CONTRACT = {
    "compiler.mechanisms.base",
    "compiler.mechanisms.marks",
    "compiler.mechanisms.state",
    "compiler.mechanisms.used",
}
REGISTRY = "compiler.mechanisms"


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _targets(module: str, is_package: bool, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The project's modules an import statement loads (the deepest one each name reaches)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            base = module.split(".") if is_package else module.split(".")[:-1]
            base = base[: len(base) - node.level + 1]
            origin = ".".join(base + ([node.module] if node.module else []))
        else:
            origin = node.module or ""
        names = [f"{origin}.{alias.name}" for alias in node.names]
    found = []
    for name in names:
        name = name.removeprefix("aventuriers.")
        while name not in MODULES and "." in name:
            name = name.rsplit(".", 1)[0]
        if name in MODULES and name != module:
            found.append(name)
    return found


def _under_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports() -> dict[str, dict[str, list[tuple[int, bool]]]]:
    """Each module's imports of the project's modules: target → [(line, at the top of the module)]."""
    graph: dict[str, dict[str, list[tuple[int, bool]]]] = {}
    for module, path in MODULES.items():
        edges: dict[str, list[tuple[int, bool]]] = {}
        tree = ast.parse(path.read_text(encoding="utf-8"))
        _visit(tree, True, module, path.name == "__init__.py", edges)
        graph[module] = edges
    return graph


def _visit(node: ast.AST, top: bool, module: str, is_package: bool, edges: dict) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            for target in _targets(module, is_package, child):
                edges.setdefault(target, []).append((child.lineno, top))
        elif not _under_type_checking(child):
            inner = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            _visit(child, top and not inner, module, is_package, edges)


def cycles(graph: dict[str, dict[str, list]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            step = next(targets, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _described(graph: dict[str, dict[str, list]], component: list[str]) -> str:
    inside = set(component)
    lines = [
        f"  {module} → {target} (line {line}{'' if top else ', in a function'})"
        for module in component
        for target, places in sorted(graph[module].items())
        if target in inside
        for line, top in places
    ]
    return "\n".join(lines)


def test_the_tarjan_search_finds_a_loop_and_only_a_loop():
    graph = {
        "a": {"b": [(1, True)]},
        "b": {"c": [(1, False)]},
        "c": {"a": [(1, True)]},
        "d": {"a": [(1, True)]},
    }
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b": [(1, True)]}, "b": {}}) == []


def test_the_imports_of_the_compiler_and_play_form_no_loop():
    graph = imports()
    assert len(graph) > 80, "the walk found the project's modules"
    found = cycles(graph)
    assert not found, "imports that go round in a loop:\n" + "\n\n".join(
        _described(graph, component) for component in found
    )


def test_a_mechanism_imports_only_what_sits_below_the_mechanisms():
    graph = imports()
    wrong = []
    for module, targets in graph.items():
        if not module.startswith("compiler.mechanisms.") or module in CONTRACT:
            continue
        for target in targets:
            if target in BELOW_THE_MECHANISMS or target.startswith(REGISTRY + "."):
                continue
            wrong.append(f"{module} → {target}")
    assert wrong == []


def test_the_contract_imports_no_mechanism_and_no_stage():
    graph = imports()
    for module in sorted(CONTRACT):
        assert set(graph[module]) <= BELOW_THE_MECHANISMS | CONTRACT, module


def test_nothing_below_the_mechanisms_imports_them():
    graph = imports()
    for module in sorted(BELOW_THE_MECHANISMS):
        above = [target for target in graph[module] if target.startswith(REGISTRY)]
        assert above == [], module


def test_no_stage_names_a_mechanism():
    """The stages (and `play/`) ask the mechanisms through the registry and the contract, never
    one mechanism's folder: what a mechanism changes reaches them as a declaration."""
    graph = imports()
    wrong = [
        f"{module} → {target}"
        for module, targets in graph.items()
        if not module.startswith(REGISTRY)
        for target in targets
        if target.startswith(REGISTRY + ".") and target not in CONTRACT
    ]
    assert wrong == []
