"""Sign-ups before the night: the sheet, the waiting list and move-ups, check-in at the desk
(docs/signups.md). Sits above the apps: none imports it."""
