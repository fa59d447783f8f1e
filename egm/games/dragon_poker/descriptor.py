"""Dragon Poker declares itself to the cabinet, the shell, the lab and the command line (docs/games.md)."""

from egm.games.descriptor import GameDescriptor, Ref

DESCRIPTOR = GameDescriptor(
    id="dragon-poker",
    title="Dragon Poker",
    game=Ref("egm.games.dragon_poker.game:DragonPoker"),
    paytable_model=Ref("egm.games.dragon_poker.paytable:DragonPokerRules"),
    strategies=Ref("egm.games.dragon_poker.house_way:HOUSE_WAYS"),
    scene=Ref("egm.games.dragon_poker.scene:DragonPokerScene"),
    attract=Ref("egm.games.dragon_poker.art:attract"),
    tile=Ref("egm.games.dragon_poker.art:tile"),
    info_pages=Ref("egm.games.dragon_poker.rules:info_pages"),
    lab_adapter=Ref("egm.games.dragon_poker.lab:DragonPokerLab"),
    kernel="egm.games.dragon_poker.lab.kernel",
    replay=Ref("egm.games.dragon_poker.replay:replay"),
    screenshots=Ref("egm.games.dragon_poker.screenshots:RECIPES"),
    commands=Ref("egm.games.dragon_poker.cli:register"),
    auto_play_label="HOUSE\nWAY",
    web="egm.games.dragon_poker:web",
    colour=(180, 24, 30),
)
