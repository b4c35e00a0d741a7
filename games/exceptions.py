"""The one application error services raise; views turn it into a 4xx with its message."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext


class ApplicationError(Exception):
    """A request the rules or the match's status refuse. Nothing was changed.

    ``status`` is the HTTP status a view answers with; ``code`` a stable machine code.
    """

    def __init__(self, message: str, *, code: str = "INVALID", status: int = 400,
                 field: str | None = None, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        # in the active language (the requester's) when the text is in the catalogues:
        # services mark their fixed refusals with gettext_noop
        self.message = gettext(message) if message else message
        self.code = code
        self.status = status
        self.field = field
        self.details = details or {}

    @property
    def client_status(self) -> int:
        """The status a page or API answers with: always a 4xx (a refusal is never a 500)."""
        return self.status if 400 <= self.status < 500 else 400

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "field": self.field,
                "details": self.details}
