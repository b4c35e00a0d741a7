"""``manage.py bench_capacity --json``: how many players one machine holds, with the stack
as deployed, and where each endpoint's knee is.

1. **The stack** (``bench/capacity/stack.py``): its own PostgreSQL database on the
   configured server (``pbw_capacity_<pid>_bench``, dropped at the end), its own two
   ``redis-server`` (the broker on ``--redis-port``, the HTML cache on the next port), an
   SMTP sink, then — with ``config.settings.production`` and a throwaway secret key —
   ``migrate``, the seed, the web server as deployed (``python -m config.webserver``:
   granian, config/webserver.py) on ``--port``, the
   clock, mail and default Celery workers and beat as docker-compose.yml runs them.
   Everything is stopped and dropped at the end, on an error, on Ctrl-C or SIGTERM.
2. **The seed** (``bench/capacity/seed.py``): ``--matches`` running Kill Game matches of
   12 players through the real services, each player logged in.
3. **Warm-up**: every player loads its match page once (its poller URL, CSRF token and
   form fields; the fragment cache as after each player opened the page).
4. **Players** (``steps``): the mixed profile at rising player counts for
   ``--mixed-seconds`` each — each player polls every ``--poll-every`` s, loads the page
   every ``--page-every`` s and runs an order cycle every ``--order-every`` s, the
   requests sent at their scheduled time whatever the server does (open loop,
   bench/capacity/loadgen.py). ``players_held`` is the largest count whose every kind of
   request had p99 < 500 ms and no error (a 5xx, a refused CSRF, a timeout, a dropped
   connection). Each step reports the load average and the cores each part used (CPU
   seconds ÷ wall seconds): the web server (``web``), the Celery workers, beat, the
   database's backends, Redis, the SMTP sink, the load generator itself, and the rest of
   the machine (``other``: whatever else runs on it).
5. **Knees** (``knees``, ``knee_steps``): each endpoint alone, open-loop at rising rates
   for ``--step-seconds`` each until p99 ≥ 500 ms or an error: the unchanged poll
   (``poll``), the match page (``page``), the order cycle (``order``: an order and its
   withdrawal, the Kill Game form's two htmx POSTs) and ``/healthz``. The knee is the
   highest rate held; each step gives the CPU per request by part too.

The whole run stays within ``--time-limit`` seconds (steps that would end later are
listed in ``skipped``), then everything is taken down. ``--compare granian-2x1,sync-4,gthread-4x4``
runs the mixed steps again with other worker models on the same seed (granian, or gunicorn's
sync or gthread workers); ``--web-env KEY=VALUE`` (repeatable) starts the first web server
with those variables. ``--tiny`` is the
test's size (one match, seconds). docs/operations.md "Capacity".
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

LIMIT_MS = 500.0
# issue 33's goals on a 2-core machine: players held, and twice the page knee it measured
GOALS = {"players_held": 3000, "page_knee_per_s": 2 * 129}
LADDERS = {"poll": [150, 300, 450, 600, 750, 900, 1100, 1300, 1600, 2000],
           "page": [30, 60, 100, 140, 180, 220, 260, 300, 350, 400, 500],
           "order": [5, 10, 20, 30, 40, 60, 80],
           "healthz": [75, 150, 250, 400, 600, 800, 1000]}
PLAYERS = [1000, 2000, 2500, 3000, 3500, 4000]
TINY = {"matches": 1, "players": [12], "ladders": {"poll": [10], "page": [4], "order": [2],
                                                  "healthz": [10]},
        "step_seconds": 1.5, "mixed_seconds": 4.0}


class _Stop(Exception):
    pass


def _raise_stop(signum, frame):  # noqa: ANN001 - signal handler
    raise KeyboardInterrupt(f"signal {signum}")


class Command(BaseCommand):
    help = "Benchmark: players one machine holds, and each endpoint's knee (JSON)."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="print only the JSON result")
        parser.add_argument("--tiny", action="store_true",
                            help="the test's size: one match, a few seconds per step")
        parser.add_argument("--matches", type=int, default=0,
                            help="Kill Game matches of 12 (default: enough for the last step)")
        parser.add_argument("--players", default="",
                            help="comma-separated player counts of the mixed steps")
        parser.add_argument("--only", default="",
                            help="comma-separated parts: poll,page,order,healthz,mixed")
        parser.add_argument("--step-seconds", type=float, default=5.0)
        parser.add_argument("--mixed-seconds", type=float, default=20.0)
        parser.add_argument("--poll-every", type=float, default=5.0)
        parser.add_argument("--page-every", type=float, default=60.0)
        parser.add_argument("--order-every", type=float, default=1200.0,
                            help="seconds between a player's order cycles (0: none)")
        parser.add_argument("--compare", default="",
                            help="worker models to run the mixed steps with too, after the "
                                 "deployed config, on the same seed: comma-separated "
                                 "sync-<workers> or gthread-<workers>x<threads>")
        parser.add_argument("--max-conns", type=int, default=64,
                            help="connections to the web server at most (the proxy's)")
        parser.add_argument("--time-limit", type=float, default=570.0,
                            help="seconds for the whole run: steps that would end later are "
                                 "skipped (listed in 'skipped'), the teardown comes after")
        parser.add_argument("--port", type=int, default=8151)
        parser.add_argument("--redis-port", type=int, default=6391,
                            help="the broker's Redis; the HTML cache's on the next port "
                                 "(0: spare ports)")
        parser.add_argument("--web-env", action="append", default=[],
                            help="KEY=VALUE for the web server's environment (repeatable)")
        parser.add_argument("--database-url", default=os.environ.get(
            "BENCH_DATABASE_URL",
            f"postgres://postgres@127.0.0.1:5432/pbw_capacity_{os.getpid()}_bench"))
        parser.add_argument("--seed-into", default="", help=argparse_hidden())
        parser.add_argument("--seed-offset", type=int, default=0, help=argparse_hidden())

    def handle(self, *args, **opts):
        if opts["seed_into"]:  # inside the stack's environment (production settings)
            from bench.capacity.seed import seed

            self.stdout.write(json.dumps(seed(opts["matches"], opts["seed_into"],
                                              opts["seed_offset"])))
            return
        result = self._bench(opts)
        self.stdout.write(json.dumps(result) if opts["json"] else json.dumps(result, indent=1))

    def _say(self, opts, text: str) -> None:
        if not opts["json"]:
            self.stderr.write(text)

    # --- the run ------------------------------------------------------------------------

    def _bench(self, opts) -> dict[str, Any]:
        from bench.capacity.stack import Stack, StackError, free_port

        tiny = opts["tiny"]
        players_steps = ([int(x) for x in opts["players"].split(",") if x.strip()]
                         or (TINY["players"] if tiny else PLAYERS))
        matches = opts["matches"] or (TINY["matches"] if tiny else -(-max(players_steps) // 12))
        if opts["redis_port"]:
            redis_ports = (opts["redis_port"], opts["redis_port"] + 1)
        else:
            redis_ports = (free_port(), free_port())
        port = opts["port"] or free_port()
        web_env = _web_env(opts["web_env"])
        for name in [m for m in opts["compare"].split(",") if m.strip()]:
            _model_env(name.strip())  # a bad name is refused before anything starts
        stack = Stack(opts["database_url"], redis_ports, port, web_env=web_env)
        old = {s: signal.signal(s, _raise_stop) for s in (signal.SIGTERM, signal.SIGHUP)}
        started = opts["_started"] = time.monotonic()
        try:
            stack.start_services()
            path = stack.tmp / "players.json"
            seeded = self._seed(stack, matches, path)
            self._say(opts, f"seeded: {seeded}")
            stack.start_app()
            healthy = self._wait_healthy(stack, port)
            self._say(opts, f"stack up (healthz {healthy}) after {time.monotonic() - started:.0f}s")
            result = asyncio.run(self._load(stack, opts, path, players_steps, tiny))
        except StackError as exc:
            raise CommandError(str(exc)) from None
        finally:
            stack.stop()
            for s, handler in old.items():
                signal.signal(s, handler)
        result.update({
            "seed": seeded, "healthz_at_start": healthy,
            "wall_seconds": round(time.monotonic() - started, 1),
            "stack": {"settings": "config.settings.production",
                      "web": "python -m config.webserver" + (f" with {web_env}" if web_env else ""),
                      "celery": "clock (2), mail (4), default (1) workers and beat",
                      "database": "own database on the configured PostgreSQL",
                      "redis": f"own redis-server on {redis_ports[0]} (broker) and "
                               f"{redis_ports[1]} (HTML cache)"},
            "cpu_count": os.cpu_count(),
        })
        return result

    @staticmethod
    def _seed(stack, matches: int, path: Path) -> dict[str, Any]:
        """Migrate, then seed in one process per core side by side (the seed is most of
        the set-up time); the players of every part in one file."""
        started = time.monotonic()
        stack.manage("migrate", "--noinput")
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
        parts = max(1, min(cores, matches // 10))
        sizes = [matches // parts + (1 if i < matches % parts else 0) for i in range(parts)]
        offsets = [sum(sizes[:i]) for i in range(parts)]
        outs = stack.manage_parallel([
            ["bench_capacity", "--seed-into", f"{path}.{i}", "--matches", str(size),
             "--seed-offset", str(offset)] for i, (size, offset) in enumerate(zip(sizes, offsets))])
        players: list[dict[str, Any]] = []
        summary: dict[str, Any] = {"matches": 0, "running": 0, "accounts": 0}
        for i, out in enumerate(outs):
            part = json.loads(out.strip().splitlines()[-1])
            for key in summary:
                summary[key] += part[key]
            players += json.loads(Path(f"{path}.{i}").read_text())["players"]
        path.write_text(json.dumps({"players": players}))
        summary.update(processes=parts, seconds=round(time.monotonic() - started, 1))
        return summary

    @staticmethod
    def _wait_healthy(stack, port: int) -> int:
        import http.client

        deadline = time.monotonic() + 60
        status = 0
        while time.monotonic() < deadline:
            stack.check_alive()
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/healthz", headers={"Host": "localhost"})
                status = conn.getresponse().status
                conn.close()
                if status == 200:
                    return status
            except OSError:
                pass
            time.sleep(0.5)
        return status

    async def _mixed(self, stack, gen, opts, players_steps: list[int], mixed_s: float,
                     rng: random.Random, budget_end: float, skipped: list[str]
                     ) -> list[dict[str, Any]]:
        """The mixed profile at each player count in turn, until one is not held."""
        from bench.capacity.loadgen import mixed_events

        n_players = len(gen.players)
        mixed: list[dict[str, Any]] = []
        for count in players_steps:
            count = min(count, n_players)
            # a step not held is run once more (both reported): one burst on a shared
            # machine does not end the ladder, two in a row do
            for attempt in (1, 2):
                if time.monotonic() + mixed_s > budget_end:
                    skipped.append(f"mixed at {count} players")
                    break
                stack.check_alive()
                events = mixed_events(count, mixed_s, rng, poll_s=opts["poll_every"],
                                      page_s=opts["page_every"], order_s=opts["order_every"])
                load0 = os.getloadavg()
                ticks0, busy0 = stack.cpu_ticks(), _busy()
                t0 = time.monotonic()
                out = await gen.run(events, mixed_s)
                wall = time.monotonic() - t0
                ticks1, busy1 = stack.cpu_ticks(), _busy()
                lg = out.pop("_loadgen")
                kinds = {k: v for k, v in out.items()}
                errors = sum(v["errors"] for v in kinds.values())
                worst = max((v["p99_ms"] for v in kinds.values()), default=0.0)
                step = {"players": count, "attempt": attempt,
                        "held": errors == 0 and worst < LIMIT_MS,
                        "p99_ms_worst": worst, "errors": errors,
                        "requests_per_s": round(sum(v["per_s"] for v in kinds.values()), 1),
                        "by_kind": kinds, "load_average": [round(x, 2) for x in load0],
                        "load_average_after": [round(x, 2) for x in os.getloadavg()],
                        "cpu_cores": _cpu_split(ticks0, ticks1, busy0, busy1, lg["cpu_s"], wall),
                        "loadgen": lg}
                mixed.append(step)
                self._say(opts, f"mixed {count}: held={step['held']} worst p99 {worst} ms, "
                                f"errors {errors}, cpu {step['cpu_cores']}")
                await asyncio.sleep(0 if opts["tiny"] else 1.0)
                if step["held"]:
                    break
                await asyncio.sleep(0 if opts["tiny"] else 2.0)  # the backlog drains
            if not mixed or not mixed[-1]["held"]:
                break
        return mixed

    async def _load(self, stack, opts, path: Path, players_steps: list[int],
                    tiny: bool) -> dict[str, Any]:
        from bench.capacity.loadgen import Generator, Player, mixed_events, rate_events
        from bench.capacity.stack import HOST

        rows = json.loads(path.read_text())["players"]
        players = [Player(n=i, session=r["session"], page=r["page"], ip=r["ip"],
                          match=r["match"]) for i, r in enumerate(rows)]
        gen = Generator(stack.web_port, players, HOST, opts["max_conns"])
        rng = random.Random(3)
        only = {x for x in opts["only"].split(",") if x}
        want = (lambda part: not only or part in only)  # noqa: E731
        budget_end = opts["_started"] + opts["time_limit"]
        skipped: list[str] = []
        step_s = TINY["step_seconds"] if tiny else opts["step_seconds"]
        mixed_s = TINY["mixed_seconds"] if tiny else opts["mixed_seconds"]
        ladders = TINY["ladders"] if tiny else LADDERS
        n_players = len(players)

        warm = await gen.warm(players, concurrency=8)
        self._say(opts, f"warm-up: {warm}")
        mixed = (await self._mixed(stack, gen, opts, players_steps, mixed_s, rng, budget_end,
                                   skipped) if want("mixed") else [])
        models: dict[str, Any] = {}
        for name in [m for m in opts["compare"].split(",") if m.strip()]:
            env = _model_env(name.strip())
            if time.monotonic() + mixed_s + 30 > budget_end:
                skipped.append(f"model {name}")
                continue
            stack.restart_web(env)
            await gen.warm(players[:200], concurrency=8)  # each new process's memo
            steps = await self._mixed(stack, gen, opts, players_steps, mixed_s, rng,
                                      budget_end, skipped)
            held = [s["players"] for s in steps if s["held"]]
            models[name] = {"env": env, "players_held": max(held) if held else 0,
                            "steps": steps}
            self._say(opts, f"model {name}: {models[name]['players_held']} players held")
        if models:
            stack.restart_web(_web_env(opts["web_env"]))
            await gen.warm(players[:200], concurrency=8)
        knees: dict[str, Any] = {}
        for kind in ("poll", "page", "order", "healthz"):
            if not want(kind):
                continue
            steps = []
            for rate in ladders[kind]:
                for attempt in (1, 2):  # as the mixed steps: a rate not held, once more
                    if time.monotonic() + step_s > budget_end:
                        skipped.append(f"{kind} at {rate}/s")
                        break
                    stack.check_alive()
                    events = rate_events(kind, rate, step_s, n_players, rng)
                    load = os.getloadavg()[0]
                    ticks0, busy0, t0 = stack.cpu_ticks(), _busy(), time.monotonic()
                    out = await gen.run(events, step_s)
                    wall = time.monotonic() - t0
                    cpu = _cpu_split(ticks0, stack.cpu_ticks(), busy0, _busy(),
                                     out["_loadgen"]["cpu_s"], wall)
                    got = out.get(kind, {})
                    held = bool(got) and got["errors"] == 0 and got["p99_ms"] < LIMIT_MS
                    done = max(1, got.get("requests", 0))
                    steps.append({"rate": rate, "attempt": attempt, **got, "held": held,
                                  "load_1min": round(load, 2), "cpu_cores": cpu,
                                  # CPU per request of the web and the database: what the
                                  # machine's other load moves least
                                  "cpu_ms_per_request": {
                                      part: round(cpu.get(part, 0) * wall * 1000 / done, 2)
                                      for part in ("web", "postgres", "redis", "loadgen")}})
                    self._say(opts, f"{kind} {rate}/s: {steps[-1]}")
                    await asyncio.sleep(0 if tiny else 0.5)
                    if held:
                        break
                    await asyncio.sleep(0 if tiny else 2.0)  # the backlog drains
                if not steps or not steps[-1]["held"]:
                    break
            held_rates = [s for s in steps if s["held"]]
            knees[kind] = {"knee_per_s": held_rates[-1]["per_s"] if held_rates else 0,
                           "knee_rate": held_rates[-1]["rate"] if held_rates else 0,
                           "steps": steps}
        gen.pool.close()
        held_counts = [s["players"] for s in mixed if s["held"]]
        players_held = max(held_counts) if held_counts else 0
        page_knee = knees.get("page", {}).get("knee_per_s")
        return {"players_held": players_held,
                "limit_p99_ms": LIMIT_MS,
                "goals": GOALS,
                "goals_met": {"players_held": players_held >= GOALS["players_held"],
                              "page_knee_per_s": (None if page_knee is None else
                                                  page_knee >= GOALS["page_knee_per_s"])},
                "knees": {k: v["knee_per_s"] for k, v in knees.items()},
                "knee_steps": knees, "steps": mixed, "warmup": warm, "skipped": skipped,
                "models": models,
                "profile": {"poll_every_s": opts["poll_every"], "page_every_s": opts["page_every"],
                            "order_every_s": opts["order_every"], "mixed_seconds": mixed_s,
                            "step_seconds": step_s, "max_conns": opts["max_conns"],
                            "schedule": "open loop: latency from the scheduled time"},
                "load_average": [round(x, 2) for x in os.getloadavg()]}


def _web_env(items: list[str]) -> dict[str, str]:
    """``--web-env KEY=VALUE`` items as a dict (a malformed one: a clear refusal)."""
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise CommandError(f"--web-env: {item!r} is not KEY=VALUE")
        out[key.strip()] = value
    return out


def _model_env(name: str) -> dict[str, str]:
    """``granian-4x1`` (config/webserver.py), gunicorn's ``sync-4`` / ``gthread-2x4``
    (config/gunicorn.conf.py) as the web server's environment."""
    import re

    found = re.fullmatch(r"(sync)-(\d+)|(gthread)-(\d+)x(\d+)|(granian)-(\d+)x(\d+)", name)
    if not found:
        raise CommandError(f"--compare: {name!r} is not granian-<workers>x<threads>, "
                           "sync-<workers> or gthread-<workers>x<threads>")
    if found.group(1):
        return {"WEB_SERVER": "gunicorn", "GUNICORN_WORKER_CLASS": "sync",
                "WEB_CONCURRENCY": found.group(2)}
    if found.group(6):
        return {"WEB_SERVER": "granian", "WEB_CONCURRENCY": found.group(7),
                "WEB_THREADS": found.group(8)}
    return {"WEB_SERVER": "gunicorn", "GUNICORN_WORKER_CLASS": "gthread",
            "WEB_CONCURRENCY": found.group(4), "GUNICORN_THREADS": found.group(5)}


def argparse_hidden() -> str:
    import argparse

    return argparse.SUPPRESS


def _busy() -> tuple[int, int]:
    from bench.capacity.stack import machine_busy_ticks

    return machine_busy_ticks()


def _cpu_split(t0: dict[str, int], t1: dict[str, int], busy0: tuple[int, int],
               busy1: tuple[int, int], loadgen_s: float, wall: float) -> dict[str, float]:
    """Cores used during a step by each part (CPU seconds ÷ wall seconds)."""
    from bench.capacity.stack import CLK_TCK

    out = {name: round(max(0, t1.get(name, 0) - t0.get(name, 0)) / CLK_TCK / wall, 2)
           for name in sorted(set(t0) | set(t1))}
    out["loadgen"] = round(loadgen_s / wall, 2)
    machine = (busy1[0] - busy0[0]) / CLK_TCK / wall
    out["machine"] = round(machine, 2)
    out["other"] = round(max(0.0, machine - sum(v for k, v in out.items()
                                                   if k not in ("machine",))), 2)
    return out
