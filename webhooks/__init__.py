"""Webhooks for live reporting (docs/webhooks.md): endpoints a director registers, the events
they get (a level started, a player out with place and prize, a tournament finished with its
results, chip counts published), signed by the Standard Webhooks scheme, and the durable outbox
they are sent from after the commit, tried again for more than a day.

It owns its two tables (`Endpoint`, `Delivery`) and reads the event log: one receiver on the
event log's rows (webhooks/receivers.py) turns a row into outbox rows once the row committed,
whoever wrote it. No app imports it; the embedded server starts its in-process sender
(webhooks/worker.py), the full stack sends from Celery (webhooks/tasks.py).
"""
