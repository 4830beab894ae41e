"""How exactly do big screens show the clock?

    python -m bench.clock_accuracy --pages 6

Starts two ASGI processes (Redis channel layer, PostgreSQL), starts a clock and opens `pages`
big-screen pages in headless Chromium, alternating between the two processes. Every third page
runs with its CPU throttled 4x; every third page loses its network for a few seconds and
reconnects by itself. The bench samples each page's on-screen remaining time many times and
compares it with the server's truth (the level's end instant from the stored clock), then sets
the level to end in a few seconds and measures how late each page switched to the next level.

The screen derives the time from the same instant for every page; the figure printed is the
error of that derived value (the digits shown are that value rounded up to whole seconds).
Prints one JSON line: pages, samples, p50_error_ms, p99_error_ms, level_switch_p99_ms.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from bench import _calibrate, _django, _stack

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright runs a loop here
    os.environ["REDIS_URL"] = REDIS_URL  # this process broadcasts through the same Redis
    url = _django.setup()
    from django.utils import timezone

    from clocks.selectors import clock_state_for
    from clocks.services import clock_command
    from tournament.domain.structure import LevelSpec
    from tournament.events import Actor
    from tournament.models import ChipSet, Tournament
    from tournament.services.tournaments import structure_create, tournament_create

    actor = Actor.system("bench")
    structure = structure_create(
        name="accuracy",
        levels=[LevelSpec(100 * (i + 1), 200 * (i + 1), minutes=5) for i in range(6)],
    )
    t = tournament_create(
        actor=actor,
        name="Accuracy",
        starts_at=timezone.now(),
        buy_in=1000,
        fee=0,
        starting_stack=10000,
        structure=structure,
        chip_set=ChipSet.objects.create(name="acc"),
    )
    Tournament.objects.filter(pk=t.pk).update(status="registering")
    t.refresh_from_db()

    env = _stack.stack_env(url, REDIS_URL)
    ports = [_stack.free_port(), _stack.free_port()]
    procs = [_stack.start_asgi(p, env) for p in ports]
    errors: list[float] = []
    switches: list[float] = []
    try:
        for p in ports:
            _stack.wait_http(p)
        clock_command(tournament=t, kind="start", actor=actor)
        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
            )
            pages: list[Any] = []
            contexts: list[Any] = []
            for i in range(args.pages):
                ctx = browser.new_context(viewport={"width": 1280, "height": 720})
                page = ctx.new_page()
                page.goto(f"http://127.0.0.1:{ports[i % 2]}/t/{t.pk}/clock/")
                if i % 3 == 1:
                    cdp = ctx.new_cdp_session(page)
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
                pages.append(page)
                contexts.append(ctx)
            time.sleep(3)  # initial sync
            # Pause and resume once so every screen follows a live change too.
            clock_command(tournament=t, kind="pause", actor=actor)
            time.sleep(1)
            clock_command(tournament=t, kind="resume", actor=actor)
            deadline = time.monotonic() + args.seconds
            reconnected = False
            while time.monotonic() < deadline:
                if not reconnected and time.monotonic() > deadline - args.seconds / 2:
                    for i, ctx in enumerate(contexts):
                        if i % 3 == 2:
                            ctx.set_offline(True)
                    time.sleep(3)
                    for i, ctx in enumerate(contexts):
                        if i % 3 == 2:
                            ctx.set_offline(False)
                    reconnected = True
                    time.sleep(3)
                state = clock_state_for(t)
                assert state.level_ends_at is not None
                end_ms = state.level_ends_at.timestamp() * 1000
                for page in pages:
                    # The value the screen draws its digits from, derived now (the page
                    # writes the digits when a shown second turns, not on every frame).
                    got = page.evaluate(
                        "() => { const p = window.floorClock.project();"
                        " return [p.remainingMs, Date.now(), p.index]; }"
                    )
                    remaining, at, index = got
                    if index == state.level_index:
                        errors.append(abs(remaining - (end_ms - at)))
                time.sleep(0.2)
            # Level switch: the level ends 3 s from now.
            clock_command(tournament=t, kind="set_remaining", seconds=3, actor=actor)
            true_end = clock_state_for(t).level_ends_at
            assert true_end is not None
            time.sleep(5)
            for page in pages:
                switched = page.evaluate(
                    "() => Number(document.getElementById('bs-time').dataset.switchedAt || 0)"
                )
                if switched:
                    switches.append(switched - true_end.timestamp() * 1000)
                else:
                    switches.append(float("inf"))
            browser.close()
    finally:
        _stack.stop(procs)
    print(
        _calibrate.line(
            {
                "pages": args.pages,
                "samples": len(errors),
                "p50_error_ms": round(_stack.percentile(errors, 50), 1),
                "p99_error_ms": round(_stack.percentile(errors, 99), 1),
                "level_switch_p99_ms": round(_stack.percentile(switches, 99), 1),
                "level_switch_max_ms": round(max(switches), 1) if switches else None,
                "throttled_pages": len(range(1, args.pages, 3)),
                "reconnected_pages": len(range(2, args.pages, 3)),
            }
        )
    )


if __name__ == "__main__":
    main()
