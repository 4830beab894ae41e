"""django-csp's middleware, with the policy's header built once per process.

django-csp builds the header from the settings anew for every response: two deep copies of the
policy (dataclasses.asdict) and two joins, one for the enforced and one for the report-only
policy. On a phone's seat look-up that was 50-65 us of about 850 us of CPU in the process
(docs/benchmarks.md, 2026-12-06). Floor's policy uses no nonce, so a response that no view
changed (csp_update, csp_replace, csp_exempt and the like set attributes on the response) gets
the same header every time: it is built on the first such response and kept. Everything else
(a view's own policy, a nonce asked for, a header the view set itself) goes through django-csp
unchanged. The kept header is dropped when a CONTENT_SECURITY_POLICY setting changes (tests).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject
from csp.middleware import CSPMiddleware as _LibraryMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponseBase

# What django-csp's decorators set on a response to change its policy (csp/decorators.py).
_PER_RESPONSE = (
    "_csp_exempt",
    "_csp_exempt_ro",
    "_csp_config",
    "_csp_config_ro",
    "_csp_update",
    "_csp_update_ro",
    "_csp_replace",
    "_csp_replace_ro",
)

# (enforced, report-only, the enforced policy's excluded prefixes, the report-only one's)
_Kept = tuple[str, str, tuple[str, ...], tuple[str, ...]]
_kept: list[_Kept] = []


@receiver(setting_changed)
def _policy_changed(*, setting: str, **kwargs: object) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        _kept.clear()


class CSPMiddleware(_LibraryMiddleware):
    def _plain_policy(self, request: HttpRequest, response: HttpResponseBase) -> _Kept:
        if not _kept:
            parts = asdict(self.get_policy_parts(request=request, response=response))
            parts_ro = asdict(
                self.get_policy_parts(request=request, response=response, report_only=True)
            )
            enforced = getattr(settings, "CONTENT_SECURITY_POLICY", None) or {}
            report_only = getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None) or {}
            _kept.append(
                (
                    build_policy(**parts),
                    build_policy(**parts_ro, report_only=True),
                    tuple(enforced.get("EXCLUDE_URL_PREFIXES", None) or ()),
                    tuple(report_only.get("EXCLUDE_URL_PREFIXES", None) or ()),
                )
            )
        return _kept[0]

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if getattr(request, "_csp_nonce", None) is not None or any(
            hasattr(response, name) for name in _PER_RESPONSE
        ):
            return super().process_response(request, response)
        if settings.DEBUG and response.status_code in (500, 404):
            return response  # django-csp leaves Django's debug pages alone
        policy, policy_ro, excluded, excluded_ro = self._plain_policy(request, response)
        path = request.path_info
        if policy and HEADER not in response and not path.startswith(excluded):
            response[HEADER] = policy
        if policy_ro and HEADER_REPORT_ONLY not in response and not path.startswith(excluded_ro):
            response[HEADER_REPORT_ONLY] = policy_ro
        # As django-csp: a nonce asked for after the header was written is an error, not a
        # nonce missing from the policy.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response
