"""Pure cores of multi-flight events (Day 1A, 1B, ... merging into Day 2): no framework, no
storage. The rulebooks (tda-de, bdpv) have no flight rule: the formulas here are the event's
documented policy."""
