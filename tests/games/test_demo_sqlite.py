"""The ``make run`` demo on its embedded database (SQLite): every page of the seeded
matches answers, for a player and for the director. The rest of the suite runs on
PostgreSQL, so a query only PostgreSQL understands (``ARRAY(subquery)``, say) would
otherwise reach the demo site unseen."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json, re
import django
django.setup()
from django.core.management import call_command
from django.contrib.auth import get_user_model
from django.test import Client
from games.models import Match

call_command("run", "--no-serve", "--addr", "127.0.0.1:8999", verbosity=0)
out = {}
for name in ("demo1", "admin"):
    client = Client()
    client.force_login(get_user_model().objects.get(username=name))
    for match in Match.objects.all():
        page = client.get(f"/m/{match.pk}/")
        again = client.get(f"/m/{match.pk}/")  # read back from the fragment cache
        found = re.search(r'id="poller" hx-get="([^"]+)"', page.content.decode())
        poll = client.get(found.group(1).replace("&amp;", "&"), headers={"HX-Request": "true"}
                          ).status_code if found else None
        out[f"{name} {match.game} {match.pk}"] = [page.status_code, again.status_code, poll]
    for url in ("/", "/my/", "/m/new/"):
        out[f"{name} {url}"] = [client.get(url).status_code]
print("RESULT " + json.dumps(out))
"""


@pytest.mark.slow
def test_the_demo_site_answers_on_sqlite(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL",
                                                             "EMAIL_URL", "PBW_TEST_DB")}
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings.base",
                "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
                "STATIC_ROOT": str(tmp_path / "static"), "DEBUG": "false",
                "SECRET_KEY": "demo-sqlite-test-" + "x" * 40, "LOG_LEVEL": "ERROR",
                "ALLOWED_HOSTS": "testserver,127.0.0.1,localhost"})
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    line = next(l for l in done.stdout.splitlines() if l.startswith("RESULT "))
    result = json.loads(line[len("RESULT "):])
    assert any(" killgame " in key for key in result), result
    for key, statuses in result.items():
        assert statuses[0] == 200 and all(s in (200, 204, None) for s in statuses), (key, statuses)
