"""The spoken fallback: an announcement's words as a WAV, spoken by espeak-ng on the server, for
the screens whose browser has no voice of their language (docs/clock.md "Spoken fallback").

The words are the ones the screen shows and would speak: the venue's text of that kind and
language (clocks/announcements.py), filled with figures checked by
clocks/domain/announcement_audio.py. espeak-ng (Debian package `espeak-ng`, offline) runs once
per distinct text and language; the clip is kept in the cache under the text's hash.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess

from django.core.cache import cache
from django.utils import formats, translation
from django.utils.translation import gettext as _

from clocks.announcements import announcement_texts
from clocks.domain.announcement_audio import espeak_command, wav_with_sizes
from clocks.domain.announcements import CLOCK_KINDS, render

ESPEAK = "espeak-ng"
# A sentence takes espeak-ng well under a second; a hung process must not hold a worker.
ESPEAK_TIMEOUT_S = 5
# A clip changes only with its words, which are its key: keep it for a week.
CLIP_CACHE_SECONDS = 7 * 24 * 3600


class AudioUnavailable(Exception):
    """No clip can be made on this server (espeak-ng is missing or failed); the message says
    which."""


def espeak_path() -> str | None:
    """Where espeak-ng is installed, or None."""
    return shutil.which(ESPEAK)


def announcement_words(kind: str, language: str, figures: dict[str, object]) -> str:
    """The words a screen of `language` shows for announcement `kind` with `figures`. The
    clock's announcements are filled on the screen, which writes numbers with the language's
    grouping (1.000 / 1,000); the floor's come filled by the server, plain."""
    text = announcement_texts(language)[kind]
    if kind not in CLOCK_KINDS:
        return render(text, figures)
    with translation.override(language):
        shown = {
            name: formats.number_format(value, force_grouping=True)
            if isinstance(value, int)
            else value
            for name, value in figures.items()
        }
    return render(text, shown)


def clip_key(language: str, words: str) -> str:
    digest = hashlib.sha256(words.encode("utf-8")).hexdigest()
    return f"announce-wav:{language}:{digest}"


def announcement_wav(language: str, words: str) -> bytes:
    """The WAV of `words` spoken in `language` (a key of VOICES), from the cache or made now.
    Raises AudioUnavailable when espeak-ng is missing, fails or takes too long."""
    key = clip_key(language, words)
    kept = cache.get(key)
    if isinstance(kept, bytes):
        return kept
    executable = espeak_path()
    if executable is None:
        raise AudioUnavailable(_("espeak-ng is not installed on this server."))
    try:
        # An argument list of fixed options and a known voice; the words go in on stdin.
        done = subprocess.run(  # noqa: S603
            espeak_command(executable, language),
            input=words.encode("utf-8"),
            capture_output=True,
            timeout=ESPEAK_TIMEOUT_S,
            check=True,
        )
        clip = wav_with_sizes(done.stdout)
    except subprocess.TimeoutExpired as exc:
        raise AudioUnavailable(_("espeak-ng took too long.")) from exc
    except (subprocess.CalledProcessError, OSError, ValueError) as exc:
        raise AudioUnavailable(_("espeak-ng could not speak this text.")) from exc
    cache.set(key, clip, CLIP_CACHE_SECONDS)
    return clip
