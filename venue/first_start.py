"""The venue's first start: the director's account and what a night needs at once (a chip set
and the structure templates), and nothing of the demo (docs/venue.md)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Field
from django.utils.translation import gettext as _

from core.roles import DIRECTOR, ensure_role_groups
from tournament.services.tournaments import starter_kit_ensure


def has_director() -> bool:
    return get_user_model().objects.filter(groups__name=DIRECTOR, is_active=True).exists()


def director_problems(username: str, password: str) -> list[str]:
    """Why these cannot be the director's account (empty: they can)."""
    user_model = get_user_model()
    problems: list[str] = []
    username = username.strip()
    if not username:
        problems.append(_("The user name is empty."))
    else:
        field = user_model._meta.get_field(user_model.USERNAME_FIELD)
        assert isinstance(field, Field)
        try:
            field.clean(username, None)
        except ValidationError as exc:
            problems.extend(str(m) for m in exc.messages)
        if user_model.objects.filter(username=username).exists():
            problems.append(
                _("There is already an account named %(name)s.") % {"name": repr(username)}
            )
    try:
        validate_password(password, user_model(username=username))
    except ValidationError as exc:
        problems.extend(str(m) for m in exc.messages)
    return problems


@transaction.atomic
def director_create(username: str, password: str) -> None:
    """The director (every floor right, the admin site too), and the starter kit."""
    problems = director_problems(username, password)
    if problems:
        raise ValueError(" ".join(problems))
    ensure_role_groups()
    user = get_user_model().objects.create_user(
        username=username.strip(), password=password, is_staff=True, is_superuser=True
    )
    user.groups.add(Group.objects.get(name=DIRECTOR))
    starter_kit_ensure()
