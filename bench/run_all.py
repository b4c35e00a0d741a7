"""Run every engine benchmark in bench/ and print their JSON as one object.

``python bench/run_all.py`` (or ``make bench``). The deadline benchmark needs PostgreSQL
and Redis and is a management command: ``python manage.py bench_deadlines --json``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    results: dict[str, object] = {}
    for script in sorted(HERE.glob("*.py")):
        if script.name == Path(__file__).name:
            continue
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
