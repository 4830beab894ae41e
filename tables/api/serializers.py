from rest_framework import serializers

from core.domain.limits import INT_MAX


class SeatSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField()
    entry = serializers.IntegerField(allow_null=True)
    number = serializers.IntegerField(allow_null=True)
    display_name = serializers.CharField(allow_null=True)
    must_wait = serializers.BooleanField()


class TableSerializer(serializers.Serializer):  # type: ignore[type-arg]
    number = serializers.IntegerField()
    seats = serializers.IntegerField()
    area = serializers.CharField()
    is_open = serializers.BooleanField()
    button = serializers.IntegerField(allow_null=True)
    small_blind = serializers.IntegerField(allow_null=True)
    big_blind = serializers.IntegerField(allow_null=True)
    hand_number = serializers.IntegerField()
    players = SeatSerializer(many=True)


class MoveSerializer(serializers.Serializer):  # type: ignore[type-arg]
    entry = serializers.IntegerField()
    from_table = serializers.IntegerField()
    from_seat = serializers.IntegerField()
    to_table = serializers.IntegerField()
    to_seat = serializers.IntegerField()
    must_wait = serializers.BooleanField()
    reason = serializers.CharField()
    instruction = serializers.CharField()


class PlanSerializer(serializers.Serializer):  # type: ignore[type-arg]
    signature = serializers.CharField()
    moves = MoveSerializer(many=True)
    holds = serializers.ListField(child=serializers.IntegerField())
    suggest_break = serializers.IntegerField(allow_null=True)


class DrawSerializer(serializers.Serializer):  # type: ignore[type-arg]
    redraw = serializers.BooleanField(default=False)


class ApplySerializer(serializers.Serializer):  # type: ignore[type-arg]
    signature = serializers.CharField(max_length=64)


class ButtonSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField(min_value=1, max_value=10)


class HandSerializer(serializers.Serializer):  # type: ignore[type-arg]
    hand_number = serializers.IntegerField(min_value=0, max_value=INT_MAX, required=False)


class MoveRequestSerializer(serializers.Serializer):  # type: ignore[type-arg]
    table = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    seat = serializers.IntegerField(min_value=1, max_value=10)


class SeatLookupSerializer(serializers.Serializer):  # type: ignore[type-arg]
    entry = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    area = serializers.CharField(allow_null=True)
    must_wait = serializers.BooleanField()
