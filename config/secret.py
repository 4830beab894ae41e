"""The venue's secret key: made once, kept in the var directory, readable by its owner only."""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured


def kept_secret_key(var_dir: Path) -> str:
    """The key in `var_dir/secret_key`, made on the first start (mode 0600). Two processes
    starting at once agree: the file is created exclusively, the loser reads the winner's."""
    path = var_dir / "secret_key"
    if not path.exists():
        key = secrets.token_urlsafe(50)
        with contextlib.suppress(FileExistsError):
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as out:
                out.write(key + "\n")
    key = path.read_text().strip()
    if len(key) < 50:
        raise ImproperlyConfigured(
            f"{path} holds no usable secret key (fewer than 50 characters). Remove the file: "
            "Floor makes a new one (everyone then logs in again)."
        )
    if os.name == "posix" and path.stat().st_mode & 0o077:
        path.chmod(0o600)
    return key
