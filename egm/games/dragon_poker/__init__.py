"""Dragon Poker with a running jackpot (seed 004): the readable reference engine the cabinet runs.

The modules, in the order a hand is played:

* `deal` - the shuffle and the four 13-card hands plus the 2 bonus cards;
* `setting` - a hand set into front 3 / middle 5 / back 5, and the refusals (foul, reused card...);
* `house_way` - the deterministic, never-fouling way the house sets a hand ("house-way/2");
* `rows` - the row comparisons (player vs dealer, then the row's winner vs the Dragon);
* `bonuses` - the bonus points each side earns from its set hands;
* `settlement` - the patent's ledger in points, and the running jackpot;
* `pair_bonus` - the optional side bet on the 2 bonus cards, with its exact RTP;
* `hand` - one complete hand from the three set hands to the ledger (used by the game and replay);
* `payout` - the ledger turned into credits, and the running jackpot pool in cents;
* `game` - the `Game` plug-in the cabinet drives; `cli` - `egm dragon replay`;
* `paytable` - the `[game]` table of the pay table (`DragonPokerRules`).

docs/dragon-poker.md states the rules as implemented; docs/house-way.md states the house way.
"""
