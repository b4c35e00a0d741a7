"""The benches: engine scripts (``python bench/run_all.py``) and the management commands
that measure the whole server (``manage.py bench_pages``, ``bench_deadlines``,
``bench_email``, ``bench_faults``). Kept out of the production apps: nothing in them
imports this package (an import-linter contract in pyproject.toml)."""
