"""Poker Grid declares itself to the cabinet, the shell, the lab and the command line (docs/games.md)."""

from egm.games.descriptor import GameDescriptor, Ref

DESCRIPTOR = GameDescriptor(
    id="poker-grid",
    title="Poker Grid",
    game=Ref("egm.games.poker_grid.game:PokerGrid"),
    paytable_model=Ref("egm.games.poker_grid.paytable:PokerGridRules"),
    strategies=Ref("egm.games.poker_grid.strategy:MACHINE_STRATEGIES"),
    scene=Ref("egm.games.poker_grid.scene:PokerGridScene"),
    attract=Ref("egm.games.poker_grid.art:attract"),
    tile=Ref("egm.games.poker_grid.art:tile"),
    info_pages=Ref("egm.games.poker_grid.rules:info_pages"),
    lab_adapter=Ref("egm.games.poker_grid.lab:PokerGridLab"),
    replay=Ref("egm.games.poker_grid.replay:replay_game"),
    screenshots=Ref("egm.games.poker_grid.screenshots:RECIPES"),
    web="egm.games.poker_grid:web",
    commands=Ref("egm.games.poker_grid.cli:register"),
    auto_play_label="AUTO\nPLAY",
    colour=(40, 90, 200),
)
