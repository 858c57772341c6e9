"""``python -m bench``: the list of studies; ``python -m bench NAME [ARGS]``: run study NAME."""
from __future__ import annotations

import ast
import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def studies() -> dict[str, str]:
    """Each runnable study (a module of bench/ with a ``main``) and its docstring's first line."""
    found = {}
    for path in sorted(HERE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if not path.stem.startswith("_") and any(
                isinstance(node, ast.FunctionDef) and node.name == "main" for node in tree.body):
            found[path.stem] = (ast.get_docstring(tree) or "").split("\n")[0]
    return found


def main(argv: list[str]) -> int:
    known = studies()
    if not argv or argv[0] in ("-h", "--help"):
        width = max(map(len, known))
        print("usage: python -m bench NAME [ARGS]   (python -m bench NAME --help for a study's)")
        for name, summary in known.items():
            print(f"  {name:<{width}}  {summary}")
        return 0
    if argv[0] not in known:
        print(f"bench: unknown study {argv[0]!r}; known: {', '.join(known)}", file=sys.stderr)
        return 2
    sys.argv = [f"python -m bench {argv[0]}", *argv[1:]]
    runpy.run_module(f"bench.{argv[0]}", run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
