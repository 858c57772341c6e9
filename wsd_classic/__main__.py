"""``python -m wsd_classic COMMAND ...``: the dispatcher behind ``bin/*`` and the console scripts."""
import contextlib
import functools
import importlib
import os
import signal
import sys

COMMANDS = ("train", "tag", "score", "models", "evaluate", "report", "compare", "vectors",
            "wordnet")


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(f"usage: python -m wsd_classic {{{','.join(COMMANDS)}}} [options]", file=sys.stderr)
        return 2
    return run(sys.argv.pop(1))


def run(command: str) -> int:
    """Load and run ``wsd_classic.cli.COMMAND`` on ``sys.argv[1:]``; its exit status."""
    sys.argv[0] = command
    try:
        with _quit_on_ctrl_c(command):
            command_main = importlib.import_module(f"wsd_classic.cli.{command}").main
        return command_main()
    finally:
        # The command is over (argparse's exit for --help or bad usage included), its output
        # complete: a Ctrl-C now would only interrupt the interpreter's clean-up (joblib
        # stopping its workers) and print a traceback.
        signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def _quit_on_ctrl_c(command: str):
    """Meanwhile, Ctrl-C ends the process at once with entry_point's line and status.

    It is for the seconds the libraries load, when there is nothing to clean up yet. Raised as
    KeyboardInterrupt inside them, it could turn into another error (NumPy's C set-up reports an
    ImportError with a page of advice) or, in code exec() runs from a string, make CPython end
    the process by SIGINT whatever the status.
    """

    def quit_interrupted(signal_number, _frame):
        print(f"{command}: interrupted", file=sys.stderr, flush=True)
        os._exit(130)

    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.default_int_handler:  # not when started with Ctrl-C ignored
        signal.signal(signal.SIGINT, quit_interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


# The console scripts (setup.cfg): the same guarded loading as ``python -m wsd_classic``.
train = functools.partial(run, "train")
tag = functools.partial(run, "tag")
score = functools.partial(run, "score")
models = functools.partial(run, "models")
evaluate = functools.partial(run, "evaluate")
report = functools.partial(run, "report")
compare = functools.partial(run, "compare")
vectors = functools.partial(run, "vectors")


if __name__ == "__main__":
    sys.exit(main())
