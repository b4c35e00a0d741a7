"""config.webserver: what the web container runs (Dockerfile, docker-compose.yml and
bench_capacity all start ``python -m config.webserver``)."""

from __future__ import annotations

import os
from pathlib import Path

from config import webserver

ROOT = Path(__file__).resolve().parents[2]


def test_granian_by_default_two_single_threaded_workers_per_core():
    argv = webserver.command({})
    assert argv[1:3] == ["-m", "granian"]
    assert argv[argv.index("--interface") + 1] == "wsgi"
    assert argv[-1] == "config.wsgi:application"
    cores = len(os.sched_getaffinity(0))
    assert argv[argv.index("--workers") + 1] == str(2 * cores)
    assert argv[argv.index("--blocking-threads") + 1] == "1"
    assert argv[argv.index("--host") + 1] == "0.0.0.0" and argv[argv.index("--port") + 1] == "8000"
    assert "--no-access-log" in argv  # the proxy logs every request (deploy/Caddyfile)


def test_the_environment_overrides_and_gunicorn_stays_available():
    argv = webserver.command({"WEB_CONCURRENCY": "3", "WEB_THREADS": "2",
                              "WEB_BIND": "127.0.0.1:8151", "WEB_ACCESS_LOG": "1"})
    assert argv[argv.index("--workers") + 1] == "3"
    assert argv[argv.index("--blocking-threads") + 1] == "2"
    assert argv[argv.index("--host") + 1] == "127.0.0.1"
    assert argv[argv.index("--port") + 1] == "8151"
    assert "--access-log" in argv
    argv = webserver.command({"WEB_SERVER": "gunicorn", "WEB_BIND": "127.0.0.1:8151"})
    assert argv[0].endswith("gunicorn")
    assert argv[1:] == ["-b", "127.0.0.1:8151", "-c", "config/gunicorn.conf.py", "config.wsgi"]


def test_the_image_and_compose_start_the_launcher():
    assert 'CMD ["python", "-m", "config.webserver"]' in (ROOT / "Dockerfile").read_text()
    assert "python -m config.webserver" in (ROOT / "docker-compose.yml").read_text()
    assert "granian==" in (ROOT / "requirements.txt").read_text()
