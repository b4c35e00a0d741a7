"""``makemessages`` that also extracts the engines' sentences: ``T("…")``, ``Tn("…", "…",
n)`` and ``Tc(context, "…")`` of ``games.rules`` (engines import no Django, so they mark
their text with these instead of ``gettext``)."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = makemessages.Command.xgettext_options + [
        "--keyword=T", "--keyword=Tn:1,2", "--keyword=Tc:1c,2"]
