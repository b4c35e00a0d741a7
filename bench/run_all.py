"""Run every engine benchmark in bench/ and print their JSON as one object.

``python bench/run_all.py`` (or ``make bench``). The server benches need PostgreSQL and
Redis and are management commands of this app (bench/management/commands):
``python manage.py bench_deadlines --json``, ``bench_pages``, ``bench_email``, ``bench_faults``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the engine scripts: each runs alone (no Django) and prints one JSON object
SCRIPTS = ("diceslayer_bot.py", "killgame_resolve.py", "sanguosha_engine.py")


def main() -> int:
    results: dict[str, object] = {}
    for script in (HERE / name for name in SCRIPTS):
        proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                              cwd=HERE.parent)
        try:
            results[script.stem] = json.loads(proc.stdout)
        except json.JSONDecodeError:
            results[script.stem] = {"error": (proc.stderr or proc.stdout)[-2000:],
                                    "exit": proc.returncode}
    print(json.dumps(results, indent=2, sort_keys=True))
    return 0 if all("error" not in r for r in results.values() if isinstance(r, dict)) else 1


if __name__ == "__main__":
    sys.exit(main())
