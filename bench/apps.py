"""The bench app: only management commands (no models, URLs or templates), so installing
it everywhere costs nothing and ``manage.py bench_*`` works with any settings module."""

from __future__ import annotations

from django.apps import AppConfig


class BenchConfig(AppConfig):
    name = "bench"
    verbose_name = "Benches"
