"""Coin Flip declares itself: no scene of its own (the cabinet's generic table draws it)."""

from egm.games.descriptor import GameDescriptor, Ref

DESCRIPTOR = GameDescriptor(
    id="coin-flip",
    title="Coin Flip",
    game=Ref("coin_flip.game:CoinFlip"),
    paytable_model=Ref("coin_flip.game:CoinFlipRules"),
    lab_adapter=Ref("coin_flip.lab:CoinFlipLab"),
    replay=Ref("coin_flip.game:replay"),
    auto_play_label="CALL\nHEADS",
    colour=(30, 120, 90),
)
