"""Which gunicorn worker model holds more: the deployed config (config/gunicorn.conf.py)
started with each model in turn against the same database, the same pages hammered by
the same clients, the models run alternately so the machine's other load falls on each.

Usage (development; a database a ``bench_pages --reuse`` run built, a Redis of its own)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pbw_pages_dev_bench \\
    REDIS_URL=redis://127.0.0.1:<port>/0 python bench/web_workers.py --port 8108

Prints JSON: for each model and page, requests/s, p50/p99 ms and errors at each client
count, and the load average. Not a management command: it starts gunicorn as deployed and
only talks HTTP to it (the session cookie is made once through Django).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODELS = {"sync-2": ["-k", "sync", "-w", "2"],
          "sync-4": ["-k", "sync", "-w", "4"],
          "gthread-2x4": ["-k", "gthread", "-w", "2", "--threads", "4"]}


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings.base", "DEBUG": "false",
                "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver", "EMAIL_URL": "locmem://",
                "STATICFILES_BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
                "LOG_LEVEL": "ERROR", "GUNICORN_ACCESS_LOG": "",
                "SECRET_KEY": env.get("SECRET_KEY", "bench-web-workers-" + "k" * 40)})
    return env


def _session_and_urls() -> tuple[str, dict[str, str]]:
    """A logged-in session cookie for the 30-player match's creator, and the URLs."""
    code = (
        "import json, re\n"
        "from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY\n"
        "from django.test import Client\n"
        "from games.models import Match\n"
        "m = Match.objects.get(name='Kill Game 30'); u = m.created_by\n"
        "c = Client(); c.force_login(u)\n"
        "page = c.get(f'/m/{m.pk}/').content.decode()\n"
        "poll = re.search(r'id=\"poller\" hx-get=\"([^\"]+)\"', page).group(1)\n"
        "print(json.dumps({'cookie': c.cookies['sessionid'].value, 'page': f'/m/{m.pk}/',\n"
        "                  'poll': poll.replace('&amp;', '&')}))\n")
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT,
                          env=_env(), capture_output=True, text=True, check=True)
    found = json.loads(done.stdout.strip().splitlines()[-1])
    return found["cookie"], {"page": found["page"], "poll_204": found["poll"]}


def _hammer(port: int, path: str, headers: dict[str, str], clients: int,
            seconds: float) -> dict:
    times: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        mine = []
        while time.monotonic() < stop:
            start = time.perf_counter()
            try:
                conn.request("GET", path, headers=headers)
                response = conn.getresponse()
                response.read()
                if response.status >= 500:
                    errors[0] += 1
            except Exception:  # noqa: BLE001 - counted, then a new connection
                errors[0] += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                continue
            mine.append(time.perf_counter() - start)
        with lock:
            times.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    times.sort()
    return {"clients": clients, "per_s": round(len(times) / seconds, 1),
            "p50_ms": round(statistics.median(times) * 1000, 1) if times else None,
            "p99_ms": round(times[int(len(times) * 0.99) - 1] * 1000, 1) if times else None,
            "errors": errors[0]}


def _start(model: str, port: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [str(Path(sys.executable).with_name("gunicorn")), "-c", "config/gunicorn.conf.py",
         "--bind", f"127.0.0.1:{port}", *MODELS[model], "config.wsgi"],
        cwd=ROOT, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            conn.getresponse().read()
            return proc
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"gunicorn ({model}) did not answer")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=8108)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--clients", default="4,16,48")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    cookie, urls = _session_and_urls()
    results: dict[str, list] = {m: [] for m in MODELS}
    for _ in range(args.rounds):
        for model in MODELS:  # alternately: the machine's other load falls on each
            proc = _start(model, args.port)
            try:
                for name, path in urls.items():
                    headers = {"Cookie": f"sessionid={cookie}", "Host": "127.0.0.1"}
                    if name == "poll_204":
                        headers["HX-Request"] = "true"
                    for clients in (int(c) for c in args.clients.split(",")):
                        run = _hammer(args.port, path, headers, clients, args.seconds)
                        results[model].append({"page": name, **run,
                                               "load_1min": round(os.getloadavg()[0], 1)})
            finally:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(timeout=30)
    print(json.dumps({"models": results, "seconds_per_step": args.seconds,
                      "load_average": [round(x, 2) for x in os.getloadavg()],
                      "cpu_count": os.cpu_count()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
