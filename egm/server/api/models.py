"""Request bodies: strict types (a number in quotes is refused), no unknown keys."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

RequestId = Annotated[StrictStr, Field(min_length=1, max_length=100)]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(Body):
    login: Annotated[StrictStr, Field(min_length=3, max_length=64, pattern=r"^[A-Za-z0-9._@-]+$")]
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
