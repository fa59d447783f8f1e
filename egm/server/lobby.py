"""The lobby: the games this server offers, every installed game with its signed pay table (loaded by
the game catalogue, egm.rom.catalogue, only from a ROM that passed its self-test), what each offers,
and their warm-up (one round each by the reference decisions, so the compiled engines are built before
the first player arrives)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from egm.config import load_cabinet_config, load_jurisdiction
from egm.games import descriptor_of, descriptors
from egm.games.base import Game, play_reference
from egm.rng import Rng


class RomRefused(Exception):
    """The ROM failed its self-test, or a pay table was refused: the server does not become ready."""


@dataclass(frozen=True)
class Lobby:
    """games: by id. hand_pay_limit_cents: the jurisdiction's (a win at or above it is paid by hand).
    abandoned_round_days: the jurisdiction's [online] limit, after which an unfinished round is completed
    by the game's reference decisions (egm/server/abandon.py)."""

    games: Mapping[str, Game]
    hand_pay_limit_cents: int
    abandoned_round_days: int = 30

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


    def rules(self, game_id: str) -> list[dict[str, Any]]:
        """GET /api/v1/games/{id}/rules: the game's rules and pay pages, generated from the pay table it
        plays (the cabinet's HELP pages, from the game's pygame-free rules module), as a player reads
        them in the browser (naming the browser's controls, not the cabinet's), then what happens to an
        unfinished round (UKGC RTS 10); KeyError for a game not offered."""
        game = self.games[game_id]
        pages = descriptor_of(game_id).info_pages
        help_pages = [] if pages is None else [{"title": page.title, "lines": list(page.lines)}
                                               for page in pages.load()(game.paytable, "browser")]
        return [*help_pages, {"title": "Unfinished rounds", "lines": [
            f"A round left unfinished for {self.abandoned_round_days} days is completed for you by the "
            "game's standard play at each remaining step.",
            "Its win is paid to your balance as any win is; a win paid by hand waits for the operator."]}]


def load_lobby() -> Lobby:
    """Every installed game with its pay table (the cabinet configuration's choice of pay table, default
    <game id>.toml), or RomRefused naming what the ROM self-test or the pay-table check found."""
    from egm.rom.catalogue import load_games
    from egm.rom.compiled import configured_compiled_root, install_catalogue_code, prepare_games

    config = load_cabinet_config()
    # The compiled engines come from the ROM's verified build for this CPU, as on the cabinet; without
    # one they compile in this process (the warm-up does it before readiness).
    catalogue, compiled = install_catalogue_code(load_games(config, game_ids=list(descriptors())),
                                                 configured_compiled_root(config))
    if compiled is not None:
        prepare_games(catalogue.games, compiled)
    problems = [*catalogue.rom_check().problems] if catalogue.refused else []
    if problems:
        shown = "; ".join(str(p) for p in problems[:3])
        more = f" and {len(problems) - 3} more" if len(problems) > 3 else ""
        raise RomRefused(f"the ROM failed its self-test: {shown}{more} (see `egm rom verify`)")
    jurisdiction = load_jurisdiction(config.jurisdiction)
    return Lobby(dict(catalogue.games), jurisdiction.hand_pay_limit_cents,
                 jurisdiction.online.abandoned_round_days)


def warm(game: Game) -> None:
    """Play one round by the reference decisions (builds the compiled engines and caches)."""
    denom = game.wager_offer().denominations_cents[0]
    play_reference(game.new_round(game.default_wager(denom), Rng.from_seed(1), {}))
