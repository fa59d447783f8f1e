"""Request bodies: strict types (a number in quotes is refused), no unknown keys."""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from fastapi.exceptions import RequestValidationError
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from egm.server.accounts import LOGIN

B = TypeVar("B", bound="Body")
RequestId = Annotated[StrictStr, Field(min_length=1, max_length=100)]
# An id or a game number in a path or query: what a database BIGINT holds (beyond it, a 400, not a 500)
RowId = Annotated[int, Field(ge=1, le=2**63 - 1)]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


def parse_body(model: type[B], raw: bytes) -> B:
    """A body read by hand (a route that checks its signature first): malformed is the 400 that FastAPI
    answers for a body it reads itself."""
    try:
        return model.model_validate_json(raw)
    except ValidationError as exc:
        raise RequestValidationError([{**error, "loc": ("body", *error["loc"])} for error in exc.errors()],
                                     body=raw) from None


class Credentials(Body):
    login: Annotated[StrictStr, Field(pattern=f"^{LOGIN}$")]
    password: Annotated[StrictStr, Field(min_length=8, max_length=256)]


class Money(Body):
    request_id: RequestId
    amount_cents: StrictInt


class StartRound(Body):
    request_id: RequestId
    game_id: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    denom_cents: StrictInt
    bet_credits: StrictInt
    side_bets: dict[StrictStr, StrictInt] = {}


class DecisionBody(Body):
    request_id: RequestId
    step_no: StrictInt
    decision: dict[str, Any]


LimitCents = Annotated[StrictInt, Field(ge=1, le=100_000_000)]  # a limit of at most 1,000,000.00
Period = Literal["day", "week", "month"]


class Limits(Body):
    """PUT /api/v1/limits: only the keys sent change. A period set to null removes that limit (a removal,
    like an increase, waits for the cooling-off and a confirmation); reality_check_min null switches the
    reality check off."""

    deposit: dict[Period, LimitCents | None] = {}
    loss: dict[Period, LimitCents | None] = {}
    reality_check_min: StrictInt | None = None


class SelfExclusion(Body):
    """POST /api/v1/self-exclusion: {"days": N} (a time-out or a self-exclusion the jurisdiction offers)
    or {"permanent": true}."""

    days: StrictInt | None = None
    permanent: StrictBool = False

    @model_validator(mode="after")
    def _one_period(self) -> SelfExclusion:
        if (self.days is None) == (not self.permanent):
            raise ValueError('give either "days" or "permanent": true')
        return self


class TerminalStart(StartRound):
    """POST /api/v1/terminal/rounds: a player's start plus the cabinet's own game number."""

    game_number: Annotated[StrictInt, Field(ge=1, le=2**63 - 1)]
