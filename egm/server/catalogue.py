"""The games this server offers: every installed game, each with its signed pay table, loaded only from
a ROM that passed its self-test; and their warm-up (one round each by the reference decisions, so the
compiled engines are built before the first player arrives)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from egm.config import PROJECT_ROOT, load_cabinet_config, load_jurisdiction
from egm.games import descriptors, game_class
from egm.games.base import Game, play_reference
from egm.rng import Rng


class RomRefused(Exception):
    """The ROM failed its self-test, or a pay table was refused: the server does not become ready."""


@dataclass(frozen=True)
class Catalogue:
    """games: by id. hand_pay_limit_cents: the jurisdiction's (a win at or above it is paid by hand)."""

    games: Mapping[str, Game]
    hand_pay_limit_cents: int
    problems: tuple[str, ...] = field(default=())

    def listing(self) -> list[dict[str, Any]]:
        """GET /api/v1/games: what each game offers."""
        out = []
        for game_id, game in self.games.items():
            offer = game.wager_offer()
            out.append({
                "id": game_id,
                "title": game.title,
                "paytable_id": game.paytable.id,
                "paytable_sha256": game.paytable.sha256,
                "denominations_cents": list(offer.denominations_cents),
                "bets_credits": list(offer.bets_credits),
                "side_bets": dict(offer.side_bet_limits),
                "stake_bets": offer.stake_bets,
                "steps": list(game.steps),
            })
        return out


def load_catalogue() -> Catalogue:
    """Verify the ROM, then load every installed game with its pay table (RomRefused if any fails)."""
    from egm.rom import PaytableError, configured_paths, load_paytable, verify_rom

    config = load_cabinet_config()
    manifest, keys = configured_paths(config, PROJECT_ROOT)
    check = verify_rom(PROJECT_ROOT, keys, manifest)
    if not check.ok:
        shown = "; ".join(str(p) for p in check.problems[:3])
        more = f" and {len(check.problems) - 3} more" if len(check.problems) > 3 else ""
        raise RomRefused(f"the ROM failed its self-test: {shown}{more} (see `egm rom verify`)")
    games: dict[str, Game] = {}
    for game_id in descriptors():
        name = config.paytables.get(game_id, f"{game_id}.toml")
        try:
            paytable = load_paytable(PROJECT_ROOT / "paytables" / name, trusted_keys=keys,
                                     manifest_path=manifest)
        except PaytableError as exc:
            raise RomRefused(f"pay table refused: {exc}") from exc
        games[game_id] = game_class(game_id)(paytable)
    return Catalogue(games, load_jurisdiction(config.jurisdiction).hand_pay_limit_cents)


def warm(game: Game) -> None:
    """Play one round by the reference decisions (builds the compiled engines and caches)."""
    denom = game.wager_offer().denominations_cents[0]
    play_reference(game.new_round(game.default_wager(denom), Rng.from_seed(1), {}))
