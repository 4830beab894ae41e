"""Running a real night on one machine: the venue's server (floor_venue), its addresses and mDNS
name, the first start, the replica and restore (docs/venue.md, docs/continuity.md). Sits above
the apps: none imports it."""
