"""The account page of a logged-in person: how long this session lasts, and "Log out
everywhere" (every session of the account, on every device, this one included)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import ngettext

from core.roles import user_roles
from tournament.events import Actor
from tournament.services.sessions import user_sessions_end
from tournament.session_selectors import user_session_keys


@login_required
def account(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        ended = user_sessions_end(user=request.user, actor=Actor.from_request(request))
        logout(request)
        messages.success(
            request,
            ngettext(
                "You are logged out on every device (%(n)d session ended).",
                "You are logged out on every device (%(n)d sessions ended).",
                ended,
            )
            % {"n": ended},
        )
        return redirect("login")
    context = {
        "roles": sorted(user_roles(request.user)),
        "sessions": len(user_session_keys(user=request.user)),
        "expires_at": request.session.get_expiry_date(),
        "session_hours": settings.FLOOR_SESSION_HOURS,
    }
    return render(request, "auth/account.html", context)
