"""The history's line of an event-log row, for templates: `{{ event|event_sentence }}`."""

from __future__ import annotations

from django import template

from eventlog import words

register = template.Library()
register.filter("event_sentence", words.event_sentence)
