"""``python -m wsd_classic COMMAND ...``: the dispatcher behind ``bin/*``."""
import importlib
import signal
import sys

COMMANDS = ("train", "tag", "score", "models", "evaluate", "report")


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(f"usage: python -m wsd_classic {{{','.join(COMMANDS)}}} [options]", file=sys.stderr)
        return 2
    command = sys.argv.pop(1)
    sys.argv[0] = command
    try:
        command_main = importlib.import_module(f"wsd_classic.cli.{command}").main
    except KeyboardInterrupt:
        # Ctrl-C while the libraries load (seconds for train): the line entry_point would print.
        # (Should it land in code exec() runs from a string, as dataclasses and namedtuples are
        # built, CPython still ends the process by SIGINT rather than with this status.)
        print(f"{command}: interrupted", file=sys.stderr)
        return 130
    return command_main()


if __name__ == "__main__":
    status = main()
    # The command is over, its output complete: a Ctrl-C now would only interrupt the
    # interpreter's clean-up (joblib stopping its workers) and print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.exit(status)
