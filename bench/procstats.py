"""What the benches read of their processes from ``/proc`` (Linux): CPU time and resident
memory of a process, and of a process with all its live descendants (a Celery worker and
its pool, gunicorn and its workers)."""

from __future__ import annotations

import os
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def descendants(pids: list[int]) -> list[int]:
    """``pids`` and every live descendant of theirs, each once."""
    seen: list[int] = []
    todo = list(pids)
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.append(pid)
        try:
            for task in Path(f"/proc/{pid}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return seen


def cpu_ticks(pid: int) -> int:
    """utime + stime of one process (its own threads; not its children), in clock ticks;
    0 once it is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
        fields = raw[raw.rindex(")") + 2:].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, ValueError, IndexError):
        return 0


def cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) used so far by ``pid`` alone."""
    return cpu_ticks(pid) / TICK


def tree_cpu_seconds(pids: list[int]) -> float:
    """CPU seconds used so far by ``pids`` and their live descendants."""
    return sum(cpu_ticks(pid) for pid in descendants(pids)) / TICK


def tree_rss_mb(pids: list[int]) -> float:
    """Resident memory of ``pids`` and their live descendants, in MB."""
    total = 0
    for pid in descendants(pids):
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except (OSError, ValueError):
            continue
    return round(total / 1024, 1)
