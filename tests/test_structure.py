"""The import structure (docs/architecture.md, "Imports"): no import cycle between Floor's
modules, imports inside functions counted; at most `LIMIT` imports inside functions in
production code, each with its reason in a comment `# inside: <reason>` on its line or the line
above; no function over 80 lines in a services module or a command. Fast: no database, one
parse of the sources."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = (
    *tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["root_packages"],
    "config",
)
LIMIT = 30
REASON = re.compile(r"#.*\binside: \S")


def _production(parts: tuple[str, ...]) -> bool:
    return not any(
        p in ("tests", "migrations") or p.startswith("test_") or p == "conftest.py" for p in parts
    )


def _sources() -> list[Path]:
    return sorted(
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if _production(path.relative_to(ROOT).parts)
    )


def _imports_inside_functions(path: Path) -> list[tuple[int, bool]]:
    """(line, has a reason) of each import inside a function of `path`."""
    text = path.read_text()
    lines = text.splitlines()
    found: list[tuple[int, bool]] = []

    def walk(node: ast.AST, inside: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if inside and isinstance(child, ast.Import | ast.ImportFrom):
                line = child.lineno
                above = lines[line - 2].strip() if line > 1 else ""
                reason = bool(
                    REASON.search(lines[line - 1])
                    or (above.startswith("#") and REASON.search(above))
                )
                found.append((line, reason))
            walk(child, inside or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef))

    walk(ast.parse(text), False)
    return found


def _components(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
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


def test_no_import_cycles_counting_imports_inside_functions():
    graph = grimp.build_graph(
        *PACKAGES,
        include_external_packages=False,
        exclude_type_checking_imports=True,
        cache_dir=None,
    )
    modules = {m for m in graph.modules if _production(tuple(m.split(".")))}
    edges = {
        m: {i for i in graph.find_modules_directly_imported_by(m) if i in modules} for m in modules
    }
    cycles = []
    for component in _components(edges):
        members = set(component)
        lines = [
            f"  {m} -> {i} (line {', '.join(str(d['line_number']) for d in details)})"
            for m in component
            for i in sorted(edges[m] & members)
            if (details := graph.get_import_details(importer=m, imported=i))
        ]
        cycles.append("cycle of " + ", ".join(component) + ":\n" + "\n".join(lines))
    assert not cycles, "\n".join(cycles)


def test_few_imports_inside_functions_each_with_its_reason():
    counted: list[str] = []
    unexplained: list[str] = []
    for path in _sources():
        name = path.relative_to(ROOT).as_posix()
        for line, reason in _imports_inside_functions(path):
            where = f"{name}:{line}"
            counted.append(where)
            if not reason:
                unexplained.append(where)
    assert not unexplained, (
        "imports inside functions without `# inside: <reason>` (move them to the top of the "
        "module, or say why not):\n" + "\n".join(unexplained)
    )
    assert len(counted) <= LIMIT, f"{len(counted)} imports inside functions:\n" + "\n".join(counted)


SERVICE_MOST_LINES = 80


def _services_module(parts: tuple[str, ...]) -> bool:
    """A module that writes: an app's services (services.py, services/, *_services.py) or a
    command of the layer above (actions/*.py)."""
    name = parts[-1]
    return (
        name == "services.py"
        or "services" in parts[:-1]
        or name.endswith("_services.py")
        or (parts[0] == "actions" and len(parts) == 2)
    )


def test_no_function_in_a_services_module_is_over_80_lines():
    """A service or a command reads top to bottom: a longer one is split into named steps."""
    long = []
    for path in _sources():
        parts = path.relative_to(ROOT).parts
        if not _services_module(parts):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > SERVICE_MOST_LINES:
                    long.append(f"{'/'.join(parts)}:{node.lineno} {node.name} ({lines} lines)")
    assert not long, "functions over 80 lines in services modules:\n" + "\n".join(long)
