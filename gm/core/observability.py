"""Operations endpoints: ``/health/`` (django-health-check) and ``/metrics`` (prometheus-client).

The web process, the worker and beat run in separate containers, so in-process metric objects would only ever
show the web process's own numbers. The metrics are therefore read when scraped, from the rows every process
shares: resolutions and deadline lateness from ``Phase``, overdue phases from ``Phase`` and the clock, e-mail
failures from a counter in the shared cache (``CACHES``: Redis in production).
"""
from __future__ import annotations

import dataclasses
import datetime
import hmac
import ipaddress

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db.models import Count, DurationField, ExpressionWrapper, F, Q, Sum
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.utils import timezone
from health_check.base import HealthCheck
from health_check.exceptions import ServiceUnavailable
from health_check.views import HealthCheckView
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily

from .metrics import email_failures
from .models import Game, Phase

#: Upper bounds (seconds) of the deadline-lateness histogram buckets; ``+Inf`` is added.
LATENESS_BUCKETS = (1.0, 5.0, 15.0, 30.0, 60.0, 120.0, 300.0, 900.0, 3600.0)


def _live_unresolved() -> Q:
    """Phases the sweep is responsible for: open or resolving, in a running (or setting-up) unpaused game."""
    return Q(status__in=[Phase.Status.OPEN, Phase.Status.RESOLVING], game__paused_at__isnull=True,
             game__status__in=[Game.Status.RUNNING, Game.Status.SETUP])


def overdue_phases(*, older_than: float, now: datetime.datetime | None = None) -> int:
    """How many live phases are past their deadline by more than ``older_than`` seconds (unresolved)."""
    now = now or timezone.now()
    return Phase.objects.filter(_live_unresolved(), deadline__lte=now - datetime.timedelta(seconds=older_than)).count()


@dataclasses.dataclass
class NoOverduePhase(HealthCheck):
    """Unhealthy when a live phase is more than ``GM_HEALTH_OVERDUE_MINUTES`` past its deadline: the sweep (beat)
    or every worker is down, or resolutions fail. Raises :class:`ServiceUnavailable` with the count only."""

    async def run(self) -> None:
        minutes = settings.GM_HEALTH_OVERDUE_MINUTES
        # Thread-sensitive: the query runs on the request thread's connection, like every other view's.
        count = await sync_to_async(overdue_phases)(older_than=minutes * 60)
        if count:
            raise ServiceUnavailable(f"{count} phase(s) overdue by more than {minutes:g} minutes")


@dataclasses.dataclass
class Broker(HealthCheck):
    """The Celery broker accepts a connection (one attempt, no retries)."""

    def run(self) -> None:
        from gm.celery import app

        try:
            with app.connection_for_write() as conn:
                conn.ensure_connection(max_retries=1, timeout=self.timeout.total_seconds())
        except Exception as exc:  # kombu raises the transport's own errors
            raise ServiceUnavailable("broker unreachable") from exc


class HealthView(HealthCheckView):
    """``/health/``: database, cache, broker, a Celery worker ping (``GM_HEALTH_CELERY_PING``) and no overdue
    phase. 200 when all pass, 500 otherwise; ``?format=json`` or ``Accept: application/json`` for machines."""

    def get_checks(self):
        checks: list = ["health_check.checks.Database", "health_check.checks.Cache", Broker, NoOverduePhase]
        if settings.GM_HEALTH_CELERY_PING:
            checks.append(("health_check.contrib.celery.Ping", {"timeout": datetime.timedelta(seconds=2)}))
        self.checks = checks
        return super().get_checks()


class _DatabaseCollector:
    """Collects the site's metrics from the database and the cache at scrape time."""

    def collect(self):
        now = timezone.now()
        resolved = Phase.objects.filter(status=Phase.Status.RESOLVED, resolved_at__isnull=False)
        late = ExpressionWrapper(F("resolved_at") - F("deadline"), output_field=DurationField())
        buckets = {
            f"b{i}": Count("pk", filter=Q(resolved_at__lte=F("deadline") + datetime.timedelta(seconds=bound)))
            for i, bound in enumerate(LATENESS_BUCKETS)
        }
        row = resolved.aggregate(total=Count("pk"), late_sum=Sum(late, filter=Q(resolved_at__gt=F("deadline"))),
                                 **buckets)
        total = row["total"] or 0
        late_sum = row["late_sum"].total_seconds() if row["late_sum"] else 0.0
        histogram = HistogramMetricFamily(
            "gm_deadline_lateness_seconds",
            "Seconds from a phase's deadline to its resolution (0 for phases resolved early).",
            buckets=[(str(b), row[f"b{i}"]) for i, b in enumerate(LATENESS_BUCKETS)] + [("+Inf", total)],
            sum_value=late_sum,
        )
        yield histogram
        yield CounterMetricFamily("gm_phase_resolutions", "Phases resolved.", value=total)
        overdue = GaugeMetricFamily(
            "gm_phases_overdue", f"Live phases more than GM_OVERDUE_AFTER ({settings.GM_OVERDUE_AFTER:g} s) past "
            "their deadline.", value=overdue_phases(older_than=settings.GM_OVERDUE_AFTER, now=now))
        yield overdue
        yield CounterMetricFamily("gm_email_failures", "E-mails that failed to send.", value=email_failures())


def _allowed(request: HttpRequest) -> bool:
    token = settings.GM_METRICS_TOKEN
    header = request.headers.get("Authorization", "")
    if token and hmac.compare_digest(header.encode(), f"Bearer {token}".encode()):
        return True
    try:
        return ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return False


def metrics(request: HttpRequest) -> HttpResponse:
    """``/metrics`` in the Prometheus text format, for a request from the loopback address or one carrying
    ``Authorization: Bearer <GM_METRICS_TOKEN>``; 403 otherwise."""
    if not _allowed(request):
        return HttpResponseForbidden("metrics: loopback or token only\n", content_type="text/plain")
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_DatabaseCollector())
    return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
