"""The rulebooks Floor implements (tda-de, bdpv): rulings cited by rule number, penalties,
misdeals, bet interpretation, the colour-up (docs/rules_engine.md)."""
