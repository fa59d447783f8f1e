"""Dragon Poker declares itself to the cabinet, the shell, the lab and the command line (docs/games.md)."""

from egm.games.descriptor import GameDescriptor, Ref

DESCRIPTOR = GameDescriptor(
    id="dragon-poker",
    title="Dragon Poker",
    game=Ref("egm.games.dragon_poker.game:DragonPoker"),
    paytable_model=Ref("egm.games.dragon_poker.paytable:DragonPokerRules"),
    scene=Ref("egm.video.scenes.dragon_poker:DragonPokerScene"),
    lab_adapter=Ref("egm.lab.dragon_poker:DragonPokerLab"),
    kernel="egm.lab.dragon_kernel",
    replay=Ref("egm.games.dragon_poker.cli:replay_object"),
    auto_play_label="HOUSE\nWAY",
    colour=(180, 24, 30),
)
