"""The API's pagination: DRF's limit/offset pages with a ceiling on ``limit``."""
from __future__ import annotations

from rest_framework.pagination import LimitOffsetPagination


class Pagination(LimitOffsetPagination):
    """``?limit=&offset=`` pages of :data:`default_limit` items (``PAGE_SIZE``), at most :attr:`max_limit`.

    Without a ceiling DRF passes any ``limit`` to SQL, and PostgreSQL refuses one beyond a bigint (a 500); a limit
    above the ceiling is cut to it, like DRF does for every cutoff. An ``offset`` past the end never reaches SQL
    (DRF answers an empty page first)."""

    max_limit = 1000
