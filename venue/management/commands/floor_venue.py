"""`python3 floor.py venue`: Floor for a real night on this machine, serving every device in
the room (docs/venue.md).

In order: hold the var directory (one server per database), open the listening socket (a taken
port or a foreign --host is one sentence), migrate, collect the static files, ask for the
director on the first start, announce the name by mDNS, print the addresses with a QR code, and
serve (uvicorn, the in-process ticker) until Ctrl+C.
"""

from __future__ import annotations

import getpass
import io
import os
import signal
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import segno
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _

from config.env import env_str
from tournament.management.commands.floor_serve import serve
from venue import first_start
from venue.lock import FileLock, VarDirLock
from venue.mdns import Announcement, name_taken_elsewhere
from venue.network import (
    ALL,
    VenueError,
    allowed_hosts,
    base_url,
    lan_address,
    listen,
    machine_addresses,
    mdns_label,
    url_host,
)
from venue.replica import (
    SNAPSHOTS_KEPT,
    SYNC_SECONDS,
    Destination,
    Replicator,
    Snapshotter,
    destination,
)


def require_venue_settings(command: str, launcher: str) -> None:
    """Refuse to run `command` outside the venue's settings (python3 floor.py `launcher` sets
    them)."""
    if settings.DEBUG or not settings.FLOOR_VENUE:
        raise CommandError(
            f"{command} runs with the venue's settings: DJANGO_SETTINGS_MODULE="
            f"config.settings.venue (python3 floor.py {launcher} sets it)."
        )


def terminal_language() -> str:
    """Floor's language closest to the terminal's locale (LC_ALL, LC_MESSAGES, LANG), else
    English."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env_str(name, "")
        if value:
            code = value.split(".", 1)[0].split("_", 1)[0].lower()
            return code if code in dict(settings.LANGUAGES) else "en"
    return "en"


def add_venue_arguments(parser: Any) -> None:
    """The options of the venue's server (`floor_restore` passes them on to it)."""
    parser.add_argument(
        "--host",
        default=ALL,
        help="The one address to listen on (default: every interface of this machine).",
    )
    parser.add_argument("--port", type=int, default=None, help="Default 8000.")
    parser.add_argument(
        "--name", default=None, help="The mDNS name without .local (default: floor)."
    )
    parser.add_argument(
        "--public-address",
        default=None,
        help="The address every QR code and link carries: 'ip' for this machine's LAN "
        "address, or a host name or address of your own (default: the mDNS name).",
    )
    parser.add_argument(
        "--no-mdns", action="store_true", help="Do not announce the name on the network."
    )
    parser.add_argument(
        "--replica",
        default=None,
        metavar="DEST",
        help="Replicate the database continuously with Litestream to this folder (a USB "
        "stick, a network share) or to sftp://user@host/path (docs/continuity.md). "
        "Without it, a snapshot every minute into the var directory.",
    )


def venue_argv(options: dict[str, Any]) -> list[str]:
    """`add_venue_arguments`' options as the command line that gives them."""
    argv: list[str] = []
    if options.get("host") not in (None, ALL):
        argv += ["--host", str(options["host"])]
    for name in ("port", "name", "public_address", "replica"):
        if options.get(name) is not None:
            argv += ["--" + name.replace("_", "-"), str(options[name])]
    if options.get("no_mdns"):
        argv.append("--no-mdns")
    return argv


def _stop(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


class Command(BaseCommand):
    help = "Serve Floor to every device on this network (SQLite, production settings, mDNS)."

    def add_arguments(self, parser: Any) -> None:
        add_venue_arguments(parser)
        parser.add_argument(
            "--demo", action="store_true", help="Add the demo tournaments (no demo accounts)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        # The terminal speaks the operator's language (LANG, as every other program there).
        translation.activate(terminal_language())
        require_venue_settings("floor_venue", "venue")
        lock = VarDirLock(settings.VAR_DIR)
        announcement = None
        try:
            label = mdns_label(options["name"] or settings.FLOOR_VENUE_NAME)
            port = options["port"] or settings.FLOOR_VENUE_PORT
            dest = destination(options["replica"]) if options["replica"] else None
            lock.acquire("starting")
            if os.name == "posix":
                # The database holds password hashes and players' contact data: the var
                # directory is its owner's alone.
                settings.VAR_DIR.chmod(0o700)
            addresses = machine_addresses()
            listener = listen(options["host"], port, addresses)
            self._prepare(options["demo"])
            if not options["no_mdns"]:
                announcement = self._announce(label, port, options["host"], addresses)
            public = self._public_url(options["public_address"], announcement, port, addresses)
            hosts = allowed_hosts(label, addresses, settings.FLOOR_HOSTS)
            public_host = url_host(urlsplit(public).hostname or "localhost")
            # What the settings module derived from the environment, narrowed to the options
            # given here, before anything reads it (the websocket origin check reads the hosts
            # when config.asgi is imported, which the server does next).
            settings.ALLOWED_HOSTS = list(dict.fromkeys([*hosts, public_host]))
            settings.FLOOR_PUBLIC_URL = public
            settings.FLOOR_VENUE_NAME = label
            settings.FLOOR_VENUE_ANNOUNCED = announcement is not None
            settings.FLOOR_VENUE_PORT = port
            lan = lan_address(addresses)
            settings.FLOOR_VENUE_LAN_URL = base_url(lan, port) if lan else ""
            lock.note(public)
            self._banner(public, announcement is not None, label, port, addresses)
        except VenueError as exc:
            if announcement is not None:
                announcement.close()
            lock.release()
            raise CommandError(str(exc)) from None
        copies = self._copies(dest, label)
        # uvicorn stops on SIGINT/SIGTERM and then hands the signal to the handler it found:
        # these end the command through its `finally` (the mDNS goodbye, the lock).
        signal.signal(signal.SIGTERM, _stop)
        try:
            serve(host=options["host"], port=port, sock=listener.sock)
        except KeyboardInterrupt:  # Ctrl+C (uvicorn hands the signal on once it has stopped)
            pass
        finally:
            copies.stop()
            if announcement is not None:
                announcement.close()
            lock.release()
        self.stdout.write(
            _("Floor has stopped; the night's data is kept in %(where)s.")
            % {"where": settings.VAR_DIR}
        )

    def _copies(self, dest: Destination | None, label: str) -> Replicator | Snapshotter:
        """The live replica (--replica), else the snapshots every minute (docs/continuity.md);
        said in the terminal. A replica that cannot be written is said and the venue serves."""
        db_path = Path(settings.DATABASES["default"]["NAME"])
        if dest is not None:
            replicator = Replicator(settings.VAR_DIR, db_path, dest, label)
            problem = replicator.start()
            if problem:
                self.stderr.write("  " + problem)
                return replicator
            self.stdout.write(
                "  "
                + _(
                    "Replica: every commit goes to %(where)s within about %(seconds)s s "
                    "(Litestream)."
                )
                % {"where": dest.shown, "seconds": int(SYNC_SECONDS + 1)}
                + "\n"
            )
            if replicator.same_disk():
                self.stderr.write(
                    "  "
                    + _(
                        "The replica %(where)s is on this machine's own disk: it does not help "
                        "when this machine fails. Use a USB stick, a network share or "
                        "another machine."
                    )
                    % {"where": dest.shown}
                )
            return replicator
        snapshotter = Snapshotter(settings.VAR_DIR, db_path, label)
        snapshotter.start()
        self.stdout.write(
            "  "
            + _(
                "Snapshots: a copy of the database every minute into %(where)s, the last "
                "%(kept)s kept. For a live copy on another disk, start with --replica DEST."
            )
            % {"where": snapshotter.folder, "kept": SNAPSHOTS_KEPT}
            + "\n"
        )
        return snapshotter

    def _prepare(self, demo: bool) -> None:
        call_command("migrate", interactive=False, verbosity=0)
        # One checkout may serve two venues (two var directories): their starts collect the
        # same files one after the other.
        with FileLock(Path(settings.STATIC_ROOT) / ".collect.lock"):
            call_command("collectstatic", interactive=False, verbosity=0)
        if not first_start.has_director():
            self._first_director()
        if demo:
            call_command("floor_demo", no_accounts=True, stdout=io.StringIO())
            self.stdout.write(_("The demo tournaments are there (log in as your director)."))

    def _first_director(self) -> None:
        username = env_str("FLOOR_DIRECTOR_USER", "")
        password = env_str("FLOOR_DIRECTOR_PASSWORD", "")
        if username or password:
            problems = first_start.director_problems(username, password)
            if problems:
                raise VenueError(
                    _(
                        "FLOOR_DIRECTOR_USER / FLOOR_DIRECTOR_PASSWORD cannot be the director's account:"
                    )
                    + " "
                    + " ".join(problems)
                )
            first_start.director_create(username, password)
            self.stdout.write(
                _("First start: the director %(name)s was created.")
                % {"name": repr(username.strip())}
            )
            return
        if not sys.stdin.isatty():
            raise VenueError(
                _(
                    "This is the first start and there is no director yet. Start it in a "
                    "terminal to be asked, or set FLOOR_DIRECTOR_USER and FLOOR_DIRECTOR_PASSWORD."
                )
            )
        self.stdout.write(
            "\n"
            + _(
                "First start on this machine: create the director's account (every right on "
                "the floor; more staff can be added later in Admin)."
            )
            + "\n"
        )
        while True:
            username = input("  " + _("Director's user name:") + " ").strip()
            password = getpass.getpass("  " + _("Password:") + " ")
            again = getpass.getpass("  " + _("The password again:") + " ")
            problems = [] if password == again else [_("The two passwords differ.")]
            problems = problems or first_start.director_problems(username, password)
            if not problems:
                break
            for problem in problems:
                self.stdout.write(self.style.ERROR(f"  {problem}"))
        first_start.director_create(username, password)
        self.stdout.write(
            self.style.SUCCESS(
                "  " + _("The director %(name)s was created.") % {"name": repr(username)} + "\n"
            )
        )

    def _announce(self, label: str, port: int, host: str, addresses: list[str]) -> Any:
        try:
            announced = addresses if host == ALL else [host.strip("[]")]
            theirs = name_taken_elsewhere(label, addresses)
            if theirs:
                self.stderr.write(
                    _(
                        "%(name)s already answers from %(addresses)s (another Floor in this "
                        "network?): not announcing it. Start with --name to use another name."
                    )
                    % {"name": f"{label}.local", "addresses": ", ".join(theirs)}
                )
                return None
            return Announcement(label, port, announced)
        except Exception as exc:
            self.stderr.write(
                _(
                    "The name %(name)s could not be announced (%(reason)s); devices use the IP address."
                )
                % {"name": f"{label}.local", "reason": exc}
            )
            return None

    def _public_url(
        self, chosen: str | None, announcement: Any, port: int, addresses: list[str]
    ) -> str:
        lan = lan_address(addresses)
        if chosen and chosen.lower() == "ip":
            if lan is None:
                raise VenueError(_("--public-address ip: this machine has no network address."))
            return base_url(lan, port)
        if chosen:
            return base_url(chosen.strip().strip("[]"), port)
        if settings.FLOOR_PUBLIC_URL_CHOSEN:
            return str(settings.FLOOR_PUBLIC_URL_CHOSEN).rstrip("/")
        if announcement is not None:
            return base_url(announcement.host, port)
        return base_url(lan or "localhost", port)

    def _banner(
        self, public: str, announced: bool, label: str, port: int, addresses: list[str]
    ) -> None:
        lan = lan_address(addresses)
        console = f"{public}/console/"
        width = 2 + max(
            len(_(label)) for label in ("Console (staff):", "Players’ pages:", "Also at:")
        )
        lines = [
            "",
            "  " + _("Floor is running for the venue."),
            "",
            "  " + _("Console (staff):").ljust(width) + console,
            "  " + _("Players’ pages:").ljust(width) + public + "/",
        ]
        if lan and url_host(lan) not in public:
            lines.append("  " + _("Also at:").ljust(width) + base_url(lan, port) + "/console/")
        if announced:
            lines.append(
                "  "
                + _("Announced as %(name)s on this network (mDNS).") % {"name": f"{label}.local"}
            )
        lines.append("")
        self.stdout.write("\n".join(lines) + "\n")
        qr = io.StringIO()
        segno.make(console, error="l").terminal(out=qr, compact=True, border=2)
        self.stdout.write(qr.getvalue())
        self.stdout.write(
            "  "
            + _("Scan it to open the console on another device.")
            + " "
            + _("Every QR code Floor prints points to %(address)s.") % {"address": public}
            + "\n  "
            + _("Stop with Ctrl+C.")
            + "\n"
        )
        self.stdout.flush()
