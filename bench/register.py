"""Register a value that a study's rows chose by the rule of its section in docs/choices.md.

    python -m bench register SCOPE SETTING VALUE --results bench/results/FILE.json
                             --command "python -m bench STUDY ..."

VALUE is JSON (``3.0``, ``'{"C": 1.0, "tol": 0.003}'``). The value goes into
``wsd_classic/tuned/SCOPE.json`` with the command, the results file and its SHA-256, replacing the
setting's earlier entry; ``git diff`` shows the change.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from wsd_classic import tuned


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scope", help=f"one of {', '.join(tuned.scopes())}, or a new task's name")
    parser.add_argument("setting")
    parser.add_argument("value", type=json.loads, help="the value, as JSON")
    parser.add_argument("--results", type=Path, required=True,
                        help="the results file the study wrote")
    parser.add_argument("--command", required=True,
                        help="the bench command that wrote it (python -m bench ...)")
    args = parser.parse_args()
    if not args.command.startswith("python -m bench "):
        parser.error("--command: the bench command, starting 'python -m bench '")
    if not args.results.is_file():
        parser.error(f"--results {args.results}: no such file")
    written = tuned.register(args.scope, args.setting, args.value, args.command, args.results)
    print(f"registered {args.setting} in {written}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
