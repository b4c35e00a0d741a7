"""The fault bench's own stack, faults and traffic (``manage.py bench_faults``)."""
