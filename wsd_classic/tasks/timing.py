"""Wall-clock and CPU time per stage, for the summary every long job prints."""
from __future__ import annotations

import contextlib
import resource
import time


def cpu_seconds() -> float:
    """User + system time of this process and of the children it has waited for (worker pools
    are joined within the stage that starts them, so a stage's workers count in it)."""
    return sum(usage.ru_utime + usage.ru_stime for usage in (
        resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)))


class StageTimer:
    def __init__(self):
        self.seconds: dict[str, float] = {}
        self.cpu: dict[str, float] = {}

    @contextlib.contextmanager
    def stage(self, name: str):
        start, cpu_start = time.perf_counter(), cpu_seconds()
        try:
            yield
        finally:
            self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - start
            self.cpu[name] = self.cpu.get(name, 0.0) + cpu_seconds() - cpu_start

    def summary(self) -> str:
        parts = [f"{name} {seconds:.1f}s" for name, seconds in self.seconds.items()]
        return "time: " + ", ".join(parts) + f" (total {sum(self.seconds.values()):.1f}s)"
