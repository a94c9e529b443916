"""Read queries compiled to SQL once per process and run again with new values.

Django compiles a queryset to SQL on every evaluation. For the few reads every request of a game makes (the game
with its master, a viewer's seat) that compile costs more CPU than PostgreSQL spends answering: 3.3 ms against
1.6 ms for the game page's game row with its master, his profile, its long-game options and two ``Exists``
(measured on the test database, 2-core machine). :class:`PreparedQuery` builds its queryset once, with marker
values in place of the parameters, keeps the SQL and the positions of the markers in its parameters, and on each
call runs that SQL with the call's values through the same compiler, so the rows become model instances (related
objects, annotations, converters) exactly as the queryset would have made them.

Only a queryset whose changing values are plain parameters may be prepared: a value that changes the SQL itself
(a list for ``__in``, a ``None`` that becomes ``IS NULL``, a slice) must be part of the shape, not a parameter.
:class:`PreparedQuery` checks on its first compile that every marker is among the parameters (a value used twice,
in a subquery and in the outer query, fills both places).
"""
from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from django.core.exceptions import ImproperlyConfigured
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet

M = TypeVar("M", bound=Model)


#: The marker values standing in for the parameters at compile time: integers no row id or count ever is.
_MARKER_BASE = -(2 ** 62)


class PreparedQuery(Generic[M]):
    """A read queryset shape, compiled once per process and database alias.

    ``build(**params)`` returns the queryset for the given parameter values (ints: primary and foreign keys);
    ``params`` names them. Calling the prepared query with those names as keyword arguments returns the list of
    model instances the queryset would return; :meth:`first` returns the first of them or ``None``.

    Raises :class:`~django.core.exceptions.ImproperlyConfigured` on the first call if a parameter does not appear
    among the compiled SQL's parameters (it changed the SQL's shape instead), ``TypeError`` for other parameter names
    and ``ValueError`` for a ``None`` value (the queryset would have compiled it to ``IS NULL``).
    """

    def __init__(self, build: Callable[..., QuerySet[M]], *params: str) -> None:
        self._build = build
        self._params = params
        self._compiled: dict[str, tuple[QuerySet[M], Any, str, tuple, dict[str, list[int]]]] = {}
        self._lock = threading.Lock()

    def _compile(self, alias: str) -> tuple[QuerySet[M], Any, str, tuple, dict[str, list[int]]]:
        markers = {name: _MARKER_BASE - i for i, name in enumerate(self._params)}
        queryset = self._build(**markers).using(alias)
        compiler = queryset.query.get_compiler(using=alias)
        sql, sql_params = compiler.as_sql()
        slots = {}
        for name, marker in markers.items():
            positions = [i for i, value in enumerate(sql_params) if type(value) is int and value == marker]
            if not positions:
                raise ImproperlyConfigured(
                    f"PreparedQuery: parameter {name!r} is not among the compiled parameters; it must be a plain "
                    f"value, not one that changes the SQL.")
            slots[name] = positions
        return queryset, compiler, sql, tuple(sql_params), slots

    def __call__(self, *, using: str = DEFAULT_DB_ALIAS, **values: Any) -> list[M]:
        if set(values) != set(self._params):
            raise TypeError(f"PreparedQuery takes exactly the parameters {self._params}, not {tuple(values)}")
        if any(value is None for value in values.values()):
            # The queryset would have said ``IS NULL``; the compiled ``= %s`` with NULL would silently match nothing.
            raise ValueError(f"PreparedQuery parameters may not be None: {values}")
        compiled = self._compiled.get(using)
        if compiled is None:
            with self._lock:
                compiled = self._compiled.get(using) or self._compile(using)
                self._compiled[using] = compiled
        queryset, compiler, sql, sql_params, slots = compiled
        bound = list(sql_params)
        for name, positions in slots.items():
            for position in positions:
                bound[position] = values[name]
        run = copy.copy(compiler)
        run.connection = connections[using]  # this thread's connection, not the one that compiled
        run.as_sql = lambda *args, **kwargs: (sql, tuple(bound))
        clone = queryset._chain()
        clone.query.get_compiler = lambda *args, **kwargs: run
        return list(clone)

    def first(self, **values: Any) -> M | None:
        """The first row of :meth:`__call__`'s answer, or ``None``."""
        rows = self(**values)
        return rows[0] if rows else None
