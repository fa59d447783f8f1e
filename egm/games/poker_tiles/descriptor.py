"""Poker Tiles declares itself to the cabinet, the shell, the lab and the command line (docs/games.md)."""

from egm.games.descriptor import GameDescriptor, Ref

DESCRIPTOR = GameDescriptor(
    id="poker-tiles",
    title="Poker Tiles",
    game=Ref("egm.games.poker_tiles.game:PokerTiles"),
    paytable_model=Ref("egm.games.poker_tiles.paytable:PokerTilesRules"),
    strategies=Ref("egm.games.poker_tiles.strategy:MACHINE_STRATEGIES"),
    scene=Ref("egm.games.poker_tiles.scene:PokerTilesScene"),
    attract=Ref("egm.games.poker_tiles.art:attract"),
    tile=Ref("egm.games.poker_tiles.art:tile"),
    info_pages=Ref("egm.games.poker_tiles.rules:info_pages"),
    lab_adapter=Ref("egm.games.poker_tiles.lab:PokerTilesLab"),
    kernel="egm.games.poker_tiles.engine",
    replay=Ref("egm.games.poker_tiles.replay:replay_game"),
    screenshots=Ref("egm.games.poker_tiles.screenshots:RECIPES"),
    web="egm.games.poker_tiles:web",
    auto_play_label="AUTO\nPLAY",
    colour=(150, 100, 30),
)
