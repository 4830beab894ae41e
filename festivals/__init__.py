"""Events with starting flights: flights, the re-entry policy across them, bagging at the end of a
day and the Day-2 draw (docs/festivals.md). Sits above the apps: none imports it."""
