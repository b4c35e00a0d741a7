"""The load generator: players as browsers behind the reverse proxy, in one asyncio
process over raw keep-alive HTTP/1.1 (no HTTP library: parsing a response is a few
``bytes`` operations, so the generator costs a small share of a core and measures that
share, ``loadgen_cpu_s``).

**Open loop.** Every request has a scheduled time fixed before the run (the profile's
rates, each player's offset drawn at random); it is sent then, whatever the earlier ones
are doing, and its latency counts from the scheduled time, so a server that falls behind
shows it as latency instead of slowing the clients down (a closed loop would hide it).
Requests wait for a connection of the pool (``max_conns``, the proxy's connections to
gunicorn) when every one is busy; that wait is latency too.

**What the browser sends.** Each player has its session cookie (made by the seed), the
``csrftoken`` cookie and the token the page's ``hx-headers`` carry, and sends what the page
sends: ``GET /m/<id>/`` (the page), the poller's ``hx-get`` URL with ``HX-Request`` every
5 s (its ``v``/``s``/``c``/``p``/``o`` taken from the last page or poll answer, so a changed
match is fetched once, then 204 again), and the order form's htmx POSTs with the form's
hidden fields, ``X-CSRFToken`` and ``Origin``. ``X-Forwarded-For`` (one address per
player) and ``X-Forwarded-Proto: https`` are what the proxy adds; the stack trusts them
from loopback only.
"""

from __future__ import annotations

import asyncio
import html
import random
import re
import resource
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

POLLER = re.compile(rb'id="poller" hx-get="([^"]+)"')
CSRF = re.compile(rb'"X-CSRFToken": "([^"]+)"')
HIDDEN = re.compile(rb'<input type="hidden" name="(phase_id|version|seat_version)" value="(\d*)"')
START_ZONE = re.compile(rb'<select name="start_zone" id="start_zone">(.*?)</select>', re.S)
MOVE_TO = re.compile(rb'<select name="move_to" id="move_to">(.*?)</select>', re.S)
OPTION = re.compile(rb'<option value="([^"]+)"')
WITHDRAW = re.compile(rb'name="kind" value="(withdraw:[^"]+)"')
CHECKIN_FORM = re.compile(rb'action="(/m/\d+/checkin/)"')
TIMEOUT_S = 15.0
GOOD = {"poll": (200, 204), "page": (200,), "order": (200,), "healthz": (200,)}


class HttpError(Exception):
    pass


@dataclass
class Response:
    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes

    def cookies(self) -> list[tuple[str, str, bool]]:
        """(name, value, deleted) of each Set-Cookie."""
        out = []
        for name, value in self.headers:
            if name == b"set-cookie":
                first, _, attrs = value.decode("latin-1").partition(";")
                key, _, val = first.partition("=")
                low = attrs.lower()
                gone = "max-age=0" in low or "1970" in low
                out.append((key.strip(), val.strip().strip('"'), gone))
        return out


class _Conn(asyncio.Protocol):
    """One keep-alive connection: a request is written, its response parsed as the bytes
    arrive (no stream objects: this is the generator's hot path)."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buf = bytearray()
        self.waiter: asyncio.Future | None = None
        self.head: tuple[int, list[tuple[bytes, bytes]], int, bool, bool] | None = None
        self.closed = False

    def connection_made(self, transport) -> None:  # noqa: ANN001 - asyncio's signature
        self.transport = transport

    def connection_lost(self, exc) -> None:  # noqa: ANN001
        self.closed = True
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():
            if self.head is not None and self.head[2] < 0:  # body until close
                waiter.set_result(self._finish(bytes(self.buf), keep=False))
            else:
                waiter.set_exception(HttpError("ConnectionClosed"))

    def send(self, raw: bytes) -> asyncio.Future:
        self.buf.clear()
        self.head = None
        self.waiter = asyncio.get_running_loop().create_future()
        self.transport.write(raw)
        return self.waiter

    def data_received(self, data: bytes) -> None:
        self.buf += data
        if self.waiter is None:
            return
        if self.head is None:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            self.head = _head(bytes(self.buf[:end]))
            del self.buf[:end + 4]
        status, headers, length, chunked, close = self.head
        if length >= 0:
            if len(self.buf) >= length:
                self._done(bytes(self.buf[:length]), keep=not close)
        elif chunked:
            body = _dechunk(self.buf)
            if body is not None:
                self._done(body, keep=not close)

    def _finish(self, body: bytes, *, keep: bool) -> tuple[Response, bool]:
        status, headers, *_ = self.head
        return Response(status, headers, body), keep

    def _done(self, body: bytes, *, keep: bool) -> None:
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(self._finish(body, keep=keep))


def _head(head: bytes) -> tuple[int, list[tuple[bytes, bytes]], int, bool, bool]:
    """(status, headers, body length (-1: chunked or until close), chunked, close)."""
    lines = head.split(b"\r\n")
    status = int(lines[0].split(b" ", 2)[1])
    headers = []
    length, chunked, close = -1, False, lines[0].startswith(b"HTTP/1.0")
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        name, value = name.strip().lower(), value.strip()
        headers.append((name, value))
        if name == b"content-length":
            length = int(value)
        elif name == b"transfer-encoding" and b"chunked" in value.lower():
            chunked = True
        elif name == b"connection":
            close = value.lower() == b"close"
    if status in (204, 304) or 100 <= status < 200:
        length = 0
    elif chunked:
        length = -1
    elif length < 0:
        close = True  # the body ends with the connection
    return status, headers, length, chunked, close


def _dechunk(buf: bytearray) -> bytes | None:
    """The body of a complete chunked message in ``buf``, or None while incomplete."""
    parts: list[bytes] = []
    pos = 0
    while True:
        end = buf.find(b"\r\n", pos)
        if end < 0:
            return None
        size = int(bytes(buf[pos:end]).split(b";")[0], 16)
        if size == 0:
            return b"".join(parts) if buf.find(b"\r\n", end + 2) >= 0 else None
        start = end + 2
        if len(buf) < start + size + 2:
            return None
        parts.append(bytes(buf[start:start + size]))
        pos = start + size + 2


class Pool:
    """Keep-alive connections to one server, at most ``max_conns`` at a time."""

    def __init__(self, port: int, max_conns: int) -> None:
        self.port = port
        self.idle: list[_Conn] = []
        self.slots = asyncio.Semaphore(max_conns)
        self.opened = 0

    async def request(self, raw: bytes) -> Response:
        async with self.slots:
            conn = self.idle.pop() if self.idle else None
            for attempt in (0, 1):
                fresh = conn is None or conn.closed
                if fresh:
                    try:
                        _, conn = await asyncio.get_running_loop().create_connection(
                            _Conn, "127.0.0.1", self.port)
                    except OSError as exc:
                        raise HttpError(type(exc).__name__) from None
                    self.opened += 1
                try:
                    response, keep = await conn.send(raw)
                except HttpError:
                    conn.transport.close()
                    conn = None
                    if fresh or attempt:  # a kept connection the server closed: once more
                        raise
                    continue
                except BaseException:
                    conn.transport.close()  # cancelled mid-response: never reused
                    raise
                if keep and not conn.closed:
                    self.idle.append(conn)
                else:
                    conn.transport.close()
                return response
            raise HttpError("unreachable")

    def close(self) -> None:
        for conn in self.idle:
            conn.transport.close()
        self.idle.clear()


@dataclass
class Player:
    n: int
    session: str
    page: str
    ip: str
    match: int
    cookies: dict[str, str] = field(default_factory=dict)
    poll: str = ""
    csrf: str = ""
    hidden: dict[str, str] = field(default_factory=dict)
    zones: list[str] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    withdraw: list[str] = field(default_factory=list)
    can_checkin: bool = False
    busy: bool = False  # an order cycle in flight (one at a time per player, as a person)

    def learn(self, body: bytes) -> None:
        """What the page (or an htmx answer's out-of-band fragments) says now."""
        found = POLLER.search(body)
        if found:
            self.poll = html.unescape(found.group(1).decode())
        found = CSRF.search(body)
        if found:
            self.csrf = found.group(1).decode()
        for name, value in HIDDEN.findall(body):
            self.hidden[name.decode()] = value.decode()
        if b'id="order"' in body:
            found = START_ZONE.search(body)
            self.zones = [v.decode() for v in OPTION.findall(found.group(1))] if found else []
            found = MOVE_TO.search(body)
            self.moves = [v.decode() for v in OPTION.findall(found.group(1))] if found else []
            self.withdraw = [v.decode() for v in WITHDRAW.findall(body)]
        if b'id="phase-status"' in body:
            self.can_checkin = CHECKIN_FORM.search(body) is not None


class Recorder:
    """Latencies (from the scheduled time) and outcomes, by endpoint."""

    def __init__(self) -> None:
        self.lat: dict[str, list[float]] = {}
        self.errors: dict[str, dict[str, int]] = {}
        self.status: dict[str, dict[int, int]] = {}
        self.actions: dict[str, int] = {}  # order cycles: what the server did with them

    def act(self, what: str) -> None:
        self.actions[what] = self.actions.get(what, 0) + 1

    def add(self, kind: str, latency: float, status: int | None, error: str | None) -> None:
        self.lat.setdefault(kind, []).append(latency)
        if status is not None:
            by = self.status.setdefault(kind, {})
            by[status] = by.get(status, 0) + 1
        if error:
            by_e = self.errors.setdefault(kind, {})
            by_e[error] = by_e.get(error, 0) + 1

    def summary(self, seconds: float) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for kind, values in sorted(self.lat.items()):
            values.sort()
            n = len(values)
            errors = sum(self.errors.get(kind, {}).values())
            out[kind] = {"requests": n, "per_s": round(n / seconds, 1),
                         "p50_ms": round(values[n // 2] * 1000, 1),
                         "p99_ms": round(values[min(n - 1, int(n * 0.99))] * 1000, 1),
                         "max_ms": round(values[-1] * 1000, 1), "errors": errors,
                         "status": {str(k): v for k, v in sorted(self.status.get(kind, {}).items())}}
            if errors:
                out[kind]["error_kinds"] = self.errors[kind]
        if self.actions and "order" in out:
            out["order"]["actions"] = dict(sorted(self.actions.items()))
        return out


class Generator:
    def __init__(self, port: int, players: list[Player], host: str, max_conns: int) -> None:
        self.pool = Pool(port, max_conns)
        self.players = players
        self.host = host
        self.origin = f"https://{host}"
        self.rec = Recorder()
        self.pending: set[asyncio.Task] = set()
        self.rng = random.Random(33)

    # --- one request --------------------------------------------------------------------

    def _raw(self, p: Player | None, method: str, path: str, *, htmx: bool = False,
             body: bytes = b"") -> bytes:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}",
                 "User-Agent: pbw-bench-capacity", "Accept: */*",
                 "X-Forwarded-Proto: https"]
        if p is not None:
            lines.append(f"X-Forwarded-For: {p.ip}")
            cookies = {"sessionid": p.session, **p.cookies}
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in cookies.items()))
        if htmx:
            lines += ["HX-Request: true", f"HX-Current-URL: {self.origin}{p.page if p else '/'}"]
        if method == "POST":
            lines += [f"Origin: {self.origin}", f"Referer: {self.origin}{p.page if p else '/'}",
                      f"X-CSRFToken: {p.csrf if p else ''}",
                      "Content-Type: application/x-www-form-urlencoded",
                      f"Content-Length: {len(body)}"]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body

    async def send(self, p: Player | None, method: str, path: str, *, htmx: bool = False,
                   body: bytes = b"") -> Response:
        async with asyncio.timeout(TIMEOUT_S):  # a timer, not another task
            response = await self.pool.request(self._raw(p, method, path, htmx=htmx,
                                                          body=body))
        if p is not None:
            for name, value, gone in response.cookies():
                if name == "sessionid":
                    if not gone:
                        p.session = value
                elif gone:
                    p.cookies.pop(name, None)
                else:
                    p.cookies[name] = value
        return response

    async def timed(self, kind: str, at: float, coro) -> Response | None:
        """Run one request (or a cycle of them), record its latency from ``at``."""
        status, error, response = None, None, None
        try:
            response = await coro
            status = response.status
            if status not in GOOD[kind]:
                error = f"HTTP {status}"
        except asyncio.TimeoutError:
            error = "timeout"
        except HttpError as exc:
            error = str(exc)
        except OSError as exc:
            error = type(exc).__name__
        self.rec.add(kind, time.monotonic() - at, status, error)
        return response

    # --- what a player does -------------------------------------------------------------

    async def page(self, p: Player) -> Response:
        response = await self.send(p, "GET", p.page)
        if response.status == 200:
            p.learn(response.body)
        return response

    async def poll(self, p: Player) -> Response:
        response = await self.send(p, "GET", p.poll or p.page.rstrip("/") + "/poll/?v=0",
                                   htmx=True)
        if response.status == 200 and response.body:
            p.learn(response.body)
        return response

    async def order_cycle(self, p: Player) -> Response:
        """An order (a start zone, or a move), then its withdrawal when the page offers
        one: the two htmx POSTs of the order form, each answered with the fragments."""
        try:
            fields = {k: p.hidden.get(k, "") for k in ("phase_id", "version", "seat_version")}
            if p.zones:
                fields.update(kind="start_zone", start_zone=self.rng.choice(p.zones))
            elif p.moves:
                fields.update(kind="move", move_to=self.rng.choice(p.moves))
            else:
                self.rec.act("no_order_form")
                return await self.page(p)  # no order form now: the page, as a person would
            url = f"/killgame/m/{p.match}/order/"
            response = await self.send(p, "POST", url, htmx=True, body=_form(fields))
            if response.status != 200:
                self.rec.act(f"order_refused_{response.status}")
                return response
            self.rec.act("ordered")
            p.learn(response.body)
            if p.withdraw:
                fields = {k: p.hidden.get(k, "") for k in ("phase_id", "version", "seat_version")}
                fields["kind"] = p.withdraw[0]
                response = await self.send(p, "POST", url, htmx=True, body=_form(fields))
                if response.status == 200:
                    self.rec.act("withdrawn")
                    p.learn(response.body)
                else:
                    self.rec.act(f"withdraw_refused_{response.status}")
            return response
        finally:
            p.busy = False

    async def healthz(self, p: Player | None) -> Response:
        return await self.send(None, "GET", "/healthz")

    # --- schedules ----------------------------------------------------------------------

    async def run(self, events: list[tuple[float, str, int]], seconds: float) -> dict[str, Any]:
        """Send ``events`` ((offset s, kind, player index), sorted) open-loop; wait for the
        stragglers; the summary with the generator's own CPU and lag."""
        self.rec = Recorder()
        cpu0 = _cpu()
        start = time.monotonic() + 0.05
        late_max, late_sum = 0.0, 0.0
        loop = asyncio.get_running_loop()
        for offset, kind, index in events:
            at = start + offset
            delay = at - time.monotonic()
            if delay > 0.0005:
                await asyncio.sleep(delay)
            late = time.monotonic() - at
            late_max = max(late_max, late)
            late_sum += max(0.0, late)
            p = self.players[index] if index >= 0 else None
            if kind == "order":
                if p.busy:  # a person finishes one order before the next
                    continue
                p.busy = True
            coro = getattr(self, "order_cycle" if kind == "order" else kind)(p)
            task = loop.create_task(self.timed(kind, at, coro))
            self.pending.add(task)
            task.add_done_callback(self.pending.discard)
        end_sched = start + seconds
        if time.monotonic() < end_sched:
            await asyncio.sleep(end_sched - time.monotonic())
        if self.pending:
            await asyncio.wait(list(self.pending), timeout=TIMEOUT_S + 5)
        out = self.rec.summary(seconds)
        out["_loadgen"] = {"cpu_s": round(_cpu() - cpu0, 2),
                           "late_max_ms": round(late_max * 1000, 1),
                           "late_mean_ms": round(late_sum / max(1, len(events)) * 1000, 2),
                           "connections_opened": self.pool.opened}
        return out

    async def warm(self, players: list[Player], concurrency: int) -> dict[str, Any]:
        """Every player's page once (their state, and the server's fragment cache, as
        after each player opened the page), ``concurrency`` at a time."""
        self.rec = Recorder()
        queue = list(players)

        async def worker() -> None:
            while queue:
                p = queue.pop()
                await self.timed("page", time.monotonic(), self.page(p))

        started = time.monotonic()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        seconds = time.monotonic() - started
        out = self.rec.summary(seconds)
        out["seconds"] = round(seconds, 1)
        return out


def _form(fields: dict[str, str]) -> bytes:
    return "&".join(f"{quote(k)}={quote(str(v))}" for k, v in fields.items()).encode()


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# --- profiles -----------------------------------------------------------------------------

def mixed_events(players: int, seconds: float, rng: random.Random, *, poll_s: float,
                 page_s: float, order_s: float) -> list[tuple[float, str, int]]:
    """The mixed profile for the first ``players``: each polls every ``poll_s``, loads the
    page every ``page_s`` and runs an order cycle every ``order_s`` seconds, each at a
    random offset (a steady mix from the first second)."""
    events = []
    for i in range(players):
        for kind, every in (("poll", poll_s), ("page", page_s), ("order", order_s)):
            if every <= 0:
                continue
            t = rng.uniform(0, every)
            while t < seconds:
                events.append((t, kind, i))
                t += every
    events.sort()
    return events


def rate_events(kind: str, rate: float, seconds: float, players: int,
                rng: random.Random) -> list[tuple[float, str, int]]:
    """``rate`` requests/s of one kind, evenly spaced (jittered), round-robin over the
    players (``healthz``: no player)."""
    n = int(rate * seconds)
    step = 1.0 / rate
    order = list(range(players))
    rng.shuffle(order)
    return [(i * step + rng.uniform(0, step * 0.5), kind,
             -1 if kind == "healthz" else order[i % players]) for i in range(n)]
