"""WSGI entry point (``python -m config.webserver``: granian, or gunicorn, serving
``config.wsgi:application``).

``gc.freeze()`` once the app is loaded: the objects loaded at start-up (modules, templates,
URL patterns, the engines' tables) move to a permanent generation, so the collector stops
walking them on every full collection (tens of ms in p99 before). Each worker process
imports this module itself, so each freezes its own.
"""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
application = get_wsgi_application()
gc.collect()
gc.freeze()
