"""Celery tasks of the clock (full stack). Beat calls `clocks_tick` every second; the service
it calls is idempotent, so overlapping or retried ticks are harmless, and it reads only the
clocks that are due. Using a short beat interval instead of long ETAs avoids the Redis broker's
visibility-timeout redelivery. `clocks_reschedule` is the safety net (every minute)."""

from celery import shared_task


@shared_task(name="clocks.tasks.clocks_tick", ignore_result=True, expires=5)
def clocks_tick() -> int:
    from clocks.services import clocks_announce_due

    return clocks_announce_due()


@shared_task(name="clocks.tasks.clocks_reschedule", ignore_result=True, expires=50)
def clocks_reschedule() -> int:
    from clocks.services import clocks_reschedule_all

    return clocks_reschedule_all()
