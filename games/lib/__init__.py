"""Helpers of the framework, one topic a module, in two kinds (docs/style.md §17):

- **web-level** (:data:`WEB`): ``pages`` (the match page's context), ``polls`` (the polled
  fragments), ``lobby`` (the lobby's shared rows), ``htmlcache`` (the one HTML cache),
  ``lookback`` (an earlier phase as the reader saw it) —
  they build what a request answers and may use services, selectors and forms;
- **leaf utilities** (everything else: ``dates``, ``seeds``, ``safejson``, ``emailtext``,
  ``oncommit``, ``presence``, ``transient``, ``audit``, ``rawrows``, ``sqlonce``,
  ``unsubscribe``) — they import nothing of ``games`` above its models,
  ``registry`` and ``rules``, so anything may use them.

An import-linter contract keeps the line (``tests/architecture/layers.py``).
"""

WEB = ("pages", "polls", "lobby", "htmlcache", "lookback")
