"""The API's JSON parser: a body nested thousands of levels deep is a 400, not a 500."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class FloorJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as exc:  # json gives up on deep nesting with RecursionError
            raise ParseError("JSON parse error - nested too deeply") from exc
