#!/usr/bin/env python
"""Django's command-line utility.

``manage.py run`` (the embedded server) is the one command that may start without a
SECRET_KEY: it marks itself embedded, and the settings then make a random key in
``var/secret_key`` (docs/security.md).
"""

import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    if sys.argv[1:2] == ["run"]:
        os.environ["PBW_EMBEDDED"] = "1"
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
