"""The private PostgreSQL of the scaling tests, for the rating fold on PostgreSQL."""

from tests.scaling.conftest import postgres

__all__ = ["postgres"]
