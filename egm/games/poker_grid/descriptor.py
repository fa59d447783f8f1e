"""Poker Grid declares itself to the cabinet, the shell, the lab and the command line (docs/games.md)."""

from egm.games.descriptor import GameDescriptor, Ref

DESCRIPTOR = GameDescriptor(
    id="poker-grid",
    title="Poker Grid",
    game=Ref("egm.games.poker_grid.game:PokerGrid"),
    paytable_model=Ref("egm.games.poker_grid.paytable:PokerGridRules"),
    scene=Ref("egm.video.scenes.poker_grid:PokerGridScene"),
    lab_adapter=Ref("egm.games.poker_grid.lab:PokerGridLab"),
    replay=Ref("egm.games.poker_grid.cli:replay_game"),
    screenshots=Ref("egm.video.scenes.poker_grid:SCREENSHOT_RECIPES"),
    auto_play_label="AUTO\nPLAY",
    colour=(40, 90, 200),
)
