"""``manage.py bench_capacity``'s parts: the stack it starts (``stack``), the matches and
players it seeds (``seed``) and the open-loop load generator (``loadgen``)."""
