"""The layer above the apps: what one app's change makes the others do.

The apps below (tournament, tables, clocks, rules_engine) never import each other's services
(import-linter contracts in pyproject.toml). When a change in one app must be followed by work
in another, the app sends a signal declared in its own signals module, inside the transaction
that made the change, and a receiver here calls the other app's service in that same
transaction. docs/architecture.md lists every flow.
"""
