"""Wall-clock time per stage, for the summary every long job prints."""
from __future__ import annotations

import contextlib
import time


class StageTimer:
    def __init__(self):
        self.seconds: dict[str, float] = {}

    @contextlib.contextmanager
    def stage(self, name: str):
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - start

    def summary(self) -> str:
        parts = [f"{name} {seconds:.1f}s" for name, seconds in self.seconds.items()]
        return "time: " + ", ".join(parts) + f" (total {sum(self.seconds.values()):.1f}s)"
