"""A season of TD3 files in one upload: the import's routes take a larger body than the rest
(config/request_cap.py, FLOOR_LARGE_UPLOAD_PATHS); everywhere else the cap stays."""

from __future__ import annotations

from django.http import HttpResponse
from django.test import RequestFactory

from config.request_cap import RequestBodyCapMiddleware, request_body_cap


def test_the_import_routes_take_more():
    small, large = request_body_cap(), request_body_cap("/api/imports/td/")
    assert small is not None and large is not None and large > small + 30_000_000
    assert request_body_cap("/console/imports/td/") == large
    assert request_body_cap("/api/tournaments/") == small

    cap = RequestBodyCapMiddleware(lambda request: HttpResponse("read"))
    factory = RequestFactory()
    for path, status in (
        ("/api/imports/td/", 200),
        ("/console/imports/td/", 200),
        ("/api/tournaments/", 413),
    ):
        request = factory.post(path, data=b"", content_type="multipart/form-data; boundary=x")
        request.META["CONTENT_LENGTH"] = str(small + 1)
        assert cap(request).status_code == status, path
    request = factory.post(
        "/api/imports/td/", data=b"", content_type="multipart/form-data; boundary=x"
    )
    request.META["CONTENT_LENGTH"] = str(large + 1)
    assert cap(request).status_code == 413
