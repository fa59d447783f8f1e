"""Dragon Poker on the cabinet: the `Game` plug-in (game id "dragon-poker").

A round moves through three steps:

* "designate" - four face-down 13-card hands A..D and the 2 bonus cards are dealt (the pair bonus,
  if bet, was placed with the wager, before any hand is revealed). The player designates the
  player, dealer and Dragon hands: Decision("designate", {"player": "A", "dealer": "B", "dragon": "C"});
  the fourth hand is discarded.
* "set" - the player hand is revealed. The player sets it with
  Decision("set", {"front": [3 cards], "middle": [5 cards]}) (the back is the other 5) or with
  Decision("house_way"). A foul, a reused card or a card from outside the hand is refused.
* "complete" - the dealer and Dragon hands are revealed and set by the house way, the rows are
  compared, and the hand is settled (`hand.play_hand`, `payout.cabinet_payout`).

The reference strategy designates A = player, B = dealer, C = Dragon (D discarded) and presses
HOUSE WAY. The record is the deal, the wager, the jackpot before the hand, the scoreboard before the
hand and the accepted decisions; `restore` replays the decisions, so a restored round is identical.

Playing one hand (tests/test_dragon_game.py does this with a freshly signed ROM)::

    game = DragonPoker(load_default_paytable())
    round_ = game.new_round(game.default_wager(25), Rng.from_seed(5), {"dragon_jackpot": 0})
    outcome = play_reference(round_)  # win_credits, pools_cents, result_code ("P2", "D2"...), summary
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from egm.cards import Card
from egm.config import PROJECT_ROOT
from egm.games.base import Decision, DecisionRefused, Game, Outcome, Round, RoundView, Wager
from egm.games.dragon_poker.deal import HAND_LABELS, Deal, deal
from egm.games.dragon_poker.hand import REVEAL_ORDER, HandResult, play_hand
from egm.games.dragon_poker.house_way import HOUSE_WAY_VERSION, set_house_way
from egm.games.dragon_poker.pair_bonus import pair_bonus_hand, pair_bonus_win
from egm.games.dragon_poker.payout import POOL, Payout, cabinet_payout, starting_pool_cents
from egm.games.dragon_poker.paytable import PAIR_BONUS, DragonPokerRules
from egm.games.dragon_poker.setting import SetHand, choose_setting
from egm.games.dragon_poker.settlement import jackpot_award
from egm.games.record import open_record, seal
from egm.games.scoreboard import SCOREBOARD_SIZE, scoreboard_after
from egm.rng import Rng
from egm.rom import PayTable, load_paytable

DEFAULT_PAYTABLE = PROJECT_ROOT / "paytables" / "dragon-poker.toml"
RECORD_FORMAT = 1
ROLES = ("player", "dealer", "dragon")
REFERENCE_DESIGNATION = {"player": "A", "dealer": "B", "dragon": "C"}
SIDE_TITLES = {"P": "PLAYER", "H": "DEALER", "D": "DRAGON"}
DECISIONS_BY_STEP = {"designate": ("designate",), "set": ("set", "house_way"), "complete": ()}


def load_default_paytable() -> PayTable:
    """The default Dragon Poker pay table, through the pay-table ROM (signed and schema-checked)."""
    return load_paytable(DEFAULT_PAYTABLE)


class DragonPokerRound(Round):
    """One Dragon Poker hand in progress (see the module doc for the steps)."""

    def __init__(self, rules: DragonPokerRules, wager: Wager, dealt: Deal, pool_before_cents: int,
                 scoreboard: Sequence[str]) -> None:
        self.rules = rules
        self.wager = wager
        self.dealt = dealt
        self.pool_before_cents = pool_before_cents
        self.scoreboard_before = list(scoreboard)[:SCOREBOARD_SIZE]
        self.designation: dict[str, str] | None = None
        self.result: HandResult | None = None
        self.payout: Payout | None = None
        self.decisions: list[Decision] = []

    # --- steps and decisions -------------------------------------------------------------------
    @property
    def step(self) -> str:
        if self.designation is None:
            return "designate"
        return "set" if self.result is None else "complete"

    def decide(self, decision: Decision) -> None:
        step = self.step
        if decision.kind not in DECISIONS_BY_STEP[step]:
            if step == "complete":
                raise DecisionRefused(f"'{decision.kind}' is refused: this game is complete.")
            raise DecisionRefused(f"'{decision.kind}' is refused at step '{step}'; this step takes "
                                  f"{' or '.join(repr(k) for k in DECISIONS_BY_STEP[step])}.")
        if decision.kind == "designate":
            self.designation = _designation(decision.args)
        elif decision.kind == "set":
            if sorted(decision.args) != ["front", "middle"]:
                raise DecisionRefused("A 'set' takes the 'front' (3 cards) and the 'middle' (5 cards); "
                                      "the back is the other 5.")
            self._finish(choose_setting(self._hand("player"), decision.args["front"],
                                        decision.args["middle"]))
        else:
            if decision.args:
                raise DecisionRefused("A 'house_way' takes no arguments: the house way sets the whole hand.")
            self._finish(set_house_way(self._hand("player")))
        self.decisions.append(decision)

    def reference_decision(self) -> Decision:
        step = self.step
        if step == "designate":
            return Decision("designate", dict(REFERENCE_DESIGNATION))
        if step == "set":
            return Decision("house_way")
        raise DecisionRefused("This game is complete; it takes no more decisions.")

    def _hand(self, role: str) -> tuple[Card, ...]:
        assert self.designation is not None
        return self.dealt.hands[self.designation[role]]

    def _finish(self, player: SetHand) -> None:
        unit_cents = self.wager.bet_credits * self.wager.denom_cents
        dealer, dragon = set_house_way(self._hand("dealer")), set_house_way(self._hand("dragon"))
        self.result = play_hand(player, dealer, dragon, self.rules,
                                jackpot_before=self.pool_before_cents // unit_cents)
        self.payout = cabinet_payout(
            self.result.ledger, self.wager, self.rules, self.pool_before_cents,
            pair_bonus_win(self.dealt.bonus_cards, self.wager.side_bets.get(PAIR_BONUS, 0), self.rules),
        )

    # --- results -------------------------------------------------------------------------------
    def outcome(self) -> Outcome:
        if self.result is None or self.payout is None:
            raise RuntimeError("the outcome is known only once the hand is complete")
        return Outcome(
            win_credits=self.payout.win_credits,
            pools_cents={POOL: self.payout.pool_after_cents},
            result_code=self.result.ledger.result_code,
            summary=self._summary(),
            side_bet_wins_credits={PAIR_BONUS: self.payout.pair_bonus_credits}
            if PAIR_BONUS in self.wager.side_bets else {},
        )

    def _summary(self) -> dict[str, Any]:
        assert self.result is not None and self.payout is not None
        return {
            "designation": dict(self.designation or {}),
            "hands": {role: [str(c) for c in self._hand(role)] for role in ROLES}
            | {"discard": [str(c) for c in self.dealt.hands[self._discard_label()]]},
            "bonus_cards": [str(c) for c in self.dealt.bonus_cards],
            "pair_bonus": self._pair_bonus_view(),
            **self.result.to_dict(),
            "money": self.payout.to_dict(),
            "pool_movements": {POOL: self._pool_movement()},
        }

    def _pool_movement(self) -> dict[str, Any]:
        """The jackpot's money this hand, in cents, by side (the cabinet's pool meters add it up):
        paid in by the player and the dealer, won by either, and the house's reseed after a win."""
        assert self.result is not None
        ledger, unit = self.result.ledger, self.wager.bet_credits * self.wager.denom_cents
        won = ledger.jackpot_won_by in ("P", "H")
        prize, _ = jackpot_award(self.pool_before_cents, won, 0, 0, whole=self.wager.denom_cents)
        side = {"P": "player", "H": "dealer"}.get(ledger.jackpot_won_by, "")
        return {
            "paid_in_cents": {
                "player": ledger.player_to_jackpot * unit,
                "dealer": ledger.house_to_jackpot * unit,
            },
            "won_cents": {side: prize} if won else {},
            "seed_cents": ledger.jackpot_reseed * unit if won else 0,
        }

    def _discard_label(self) -> str:
        assert self.designation is not None
        return next(label for label in HAND_LABELS if label not in self.designation.values())

    def _pair_bonus_view(self) -> dict[str, Any]:
        bet = self.wager.side_bets.get(PAIR_BONUS, 0)
        hand = pair_bonus_hand(self.dealt.bonus_cards)
        return {"bet_credits": bet, "hand": hand,
                "win_credits": pair_bonus_win(self.dealt.bonus_cards, bet, self.rules)}

    # --- record and display --------------------------------------------------------------------
    def to_record(self) -> dict[str, Any]:
        return seal(DragonPoker.game_id, RECORD_FORMAT, self.wager, {
            "deck": self.dealt.to_indices(),
            "pool_before_cents": self.pool_before_cents,
            "scoreboard_before": list(self.scoreboard_before),
            "decisions": [d.to_record() for d in self.decisions],
        })

    def view(self) -> RoundView:
        """What the display may show: face-down hands stay hidden until their reveal."""
        table = self._table()
        complete = self.payout is not None and self.result is not None
        won = self.payout.jackpot_credits * self.wager.denom_cents if self.payout else 0
        return RoundView(
            game_id=DragonPoker.game_id,
            step=self.step,
            bet_credits=self.wager.bet_credits,
            stake_credits=self.wager.stake_credits,
            decision_awaited=not complete,
            auto_decision=self.step == "set",  # HOUSE WAY sets the player's hand
            win_credits=self.payout.win_credits if self.payout else None,
            pools_cents={POOL: table["jackpot_cents"]},
            pools_won_cents={POOL: won} if won else {},
            result_text=result_text(self.result.ledger.winner, self.result.ledger.rows_won)
            if self.result else "",
            table=table,
        )

    def _table(self) -> dict[str, Any]:
        """The table scene's own data (egm/games/dragon_poker/view.py reads it)."""
        step = self.step
        roles = {label: role for role, label in (self.designation or {}).items()}
        face_up = {"designate": set(), "set": {"player"}, "complete": {*ROLES, "discard"}}[step]
        hands = {}
        for label, cards in self.dealt.hands.items():
            role = roles.get(label, "discard" if self.designation else None)
            shown = role in face_up
            hands[label] = {"role": role, "face_up": shown,
                            "cards": [str(c) for c in sorted(cards, key=display_order)] if shown else None}
        view: dict[str, Any] = {
            "step": step,
            "decisions_allowed": list(DECISIONS_BY_STEP[step]),
            "hands": hands,
            "bonus_cards": [str(c) for c in self.dealt.bonus_cards],
            "pair_bonus": self._pair_bonus_view(),
            "jackpot_cents": self.pool_before_cents,
            "scoreboard": list(self.scoreboard_before),
        }
        if self.result is not None and self.payout is not None:
            view |= {
                "reveal_order": list(REVEAL_ORDER),
                **self.result.to_dict(),
                "money": self.payout.to_dict(),
                "jackpot_cents": self.payout.pool_after_cents,
                "scoreboard": scoreboard_after(self.scoreboard_before, self.result.ledger.result_code),
            }
        return view


def display_order(card: Card) -> tuple[int, int, int]:
    """A face-up hand is shown sorted: jokers first, then by rank from the ace down, then by suit.

    >>> hand = [Card.parse(t) for t in ("2c", "As", "JK", "Ad", "Tc")]
    >>> [str(c) for c in sorted(hand, key=display_order)]
    ['JK', 'Ad', 'As', 'Tc', '2c']
    """
    if card.is_joker:
        return (0, 0, 0)
    return (1, -card.rank, card.suit)


def result_text(winner: str, rows_won: int) -> str:
    """The result line, e.g. "PLAYER WINS 2 ROWS" or "SPLIT: PLAYER PAYS ONE UNIT".

    >>> result_text("D", 3)
    'DRAGON WINS 3 ROWS'
    """
    if winner == "split":
        return "SPLIT: PLAYER PAYS ONE UNIT"
    return f"{SIDE_TITLES.get(winner, winner)} WINS {rows_won} ROWS"


def _designation(args: Mapping[str, Any]) -> dict[str, str]:
    if sorted(args) != sorted(ROLES):
        raise DecisionRefused("A 'designate' names exactly the player, dealer and dragon hands, "
                              "e.g. {'player': 'A', 'dealer': 'B', 'dragon': 'C'}.")
    labels = [args[role] for role in ROLES]
    if any(label not in HAND_LABELS for label in labels):
        raise DecisionRefused(f"Designate hands by their labels {', '.join(HAND_LABELS)}.")
    if len(set(labels)) != len(labels):
        raise DecisionRefused("Designate three different hands for the player, dealer and Dragon.")
    return {role: args[role] for role in ROLES}


class DragonPoker(Game):
    """Dragon Poker bound to one pay table (a `egm.rom.PayTable` whose rules are DragonPokerRules)."""

    game_id = "dragon-poker"
    title = "Dragon Poker"
    steps = ("designate", "set", "complete")
    pool_names = (POOL,)

    def __init__(self, paytable: Any) -> None:
        strategy = paytable.header.strategy
        if strategy != HOUSE_WAY_VERSION:
            raise ValueError(f"pay table {paytable.id} names strategy {strategy!r}, but Dragon Poker sets "
                             f"hands by {HOUSE_WAY_VERSION!r} (docs/house-way.md); a pay table must be "
                             f"certified for the house way the game runs")
        super().__init__(paytable)

    @property
    def rules(self) -> DragonPokerRules:
        return self.paytable.rules

    def default_wager(self, denom_cents: int) -> Wager:
        return self.wager(self.paytable.header.default_bet_credits, denom_cents,
                          self.rules.pair_bonus.default_bet_credits)

    def wager(self, bet_credits: int, denom_cents: int, pair_bonus_credits: int = 0) -> Wager:
        """The wager for a bet of B credits per point: S x B credits, plus any pair-bonus bet."""
        side_bets = {PAIR_BONUS: pair_bonus_credits} if pair_bonus_credits else {}
        return Wager(bet_credits=bet_credits, denom_cents=denom_cents, side_bets=side_bets,
                     stake_credits=self.wager_offer().stake_credits(bet_credits, side_bets))

    def new_round(self, wager: Wager, rng: Rng, pools_cents: Mapping[str, int],
                  scoreboard: Sequence[str] = ()) -> DragonPokerRound:
        """Deal a hand. `scoreboard` is the last results kept in wager memory, newest first (the
        cabinet's `scoreboard[game_id]`); the view shows it with this hand's result added."""
        self.check_wager(wager)
        pool = pools_cents.get(POOL, starting_pool_cents(self.rules, wager))
        return DragonPokerRound(self.rules, wager, deal(rng), pool, scoreboard)

    def restore(self, record: Mapping[str, Any]) -> DragonPokerRound:
        opened = open_record(record, self.game_id, RECORD_FORMAT)
        body = opened.body
        round_ = DragonPokerRound(self.rules, opened.wager, Deal.from_indices(body["deck"]),
                                  body["pool_before_cents"], body["scoreboard_before"])
        for decision in body["decisions"]:
            try:
                round_.decide(Decision.from_record(decision))
            except DecisionRefused as exc:
                raise ValueError(f"the record holds a decision the game refuses ({exc}); "
                                 "the record is damaged") from exc
        return round_

