"""Celery application. Tasks are Django-aware (``delay_on_commit``) through ``gm.core.queueing.SafeDjangoTask``, which
logs a broker failure after commit instead of failing the request.

It also carries one narrow compatibility shim for the worker's broker reconnect (see
:func:`patch_consumer_reconnect`).
"""
import functools
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gm.settings")


def patch_consumer_reconnect() -> bool:
    """Keep the worker alive when it loses its Redis broker (celery 5.7.0 with kombu 5.7.0).

    Celery 5.7's ``Consumer.on_connection_error_after_connected`` first calls ``connection.collect()`` and then
    ``connection.close()`` (new in 5.7; earlier releases only collected). ``collect()`` detaches the kombu transport
    (``transport.client = None``) but leaves the connection's default channel in place, so ``close()`` closes that
    channel a second time; the Redis channel then restores its unacknowledged messages (any ETA task the worker
    holds, such as a phase's deadline task), builds a Redis client from the detached transport and raises
    ``AttributeError: 'NoneType' object has no attribute 'hostname'`` (``kombu/transport/redis.py``
    ``_connparams``). ``ignore_errors`` only swallows connection errors, so the worker exits with "Unrecoverable
    error" milliseconds after the connection loss, whatever the pool. The same crash family is kombu#582
    (https://github.com/celery/kombu/issues/582: a channel closed after its transport's client is gone); the
    close-after-collect step came with the reconnect-hang work of https://github.com/celery/celery/pull/10234
    (celery#9705). No released celery/kombu fixes it (5.7.0 is the newest of both), hence this shim.

    The fix: during that one method, the consumer's connection forgets its default channel once ``collect()`` has
    detached the transport, so the following ``close()`` has nothing stale left to close, as in earlier releases.
    The dead channel's sockets were already dropped by ``collect()``; its unacknowledged messages stay in Redis's
    ``unacked`` hash, which kombu restores after the visibility timeout, and deadlines never depend on them (the
    beat sweep resolves every due phase). Nothing else in the process changes. Remove this when celery's own
    reconnect no longer closes a collected connection's default channel (``tests/integration/
    test_redis_outage.py`` shows it).

    Returns ``True`` if the patch was applied now, ``False`` if it already was.
    """
    from celery.worker.consumer.consumer import Consumer

    original = Consumer.on_connection_error_after_connected
    if getattr(original, "_gm_forgets_default_channel", False):
        return False

    @functools.wraps(original)
    def on_connection_error_after_connected(self, exc):
        connection = self.connection
        if connection is not None:
            collect = connection.collect

            def collect_then_forget_channel(*args, **kwargs):
                try:
                    return collect(*args, **kwargs)
                finally:
                    connection._default_channel = None

            # An instance attribute: only this (broken, about to be dropped) connection is affected.
            connection.collect = collect_then_forget_channel
        return original(self, exc)

    on_connection_error_after_connected._gm_forgets_default_channel = True
    Consumer.on_connection_error_after_connected = on_connection_error_after_connected
    return True


patch_consumer_reconnect()

app = Celery("gm", task_cls="gm.core.queueing:SafeDjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
