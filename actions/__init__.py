"""The layer above the apps: one command per action that spans apps.

Each command is a module-level function shaped check → do → notify: it takes the tournament's
lock and refuses what cannot be, calls each app's services in turn inside one transaction (each
app writes only its own tables), then tells the screens. The pages, the API, sockets, tasks and
the demo call the commands; the apps never import each other's services (import-linter contracts
in pyproject.toml). Also here: what reads or writes across apps without being an app's own
concern: a tournament's archive (`archive.py`), the results page with league points
(`views.py`), the dealer tablet's chip counts (`dealer_counts.py`), the one signal receiver left
(`receivers.py`). docs/architecture.md has the table of commands.
"""
