"""Prism Words declares itself to the cabinet, the shell, the lab and the command line (docs/games.md)."""

from egm.games.descriptor import GameDescriptor, Ref

DESCRIPTOR = GameDescriptor(
    id="prism-words",
    title="Prism Words",
    game=Ref("egm.games.prism_words.game:PrismWords"),
    paytable_model=Ref("egm.games.prism_words.paytable:PrismWordsRules"),
    strategies=Ref("egm.games.prism_words.strategy:MACHINE_STRATEGIES"),
    scene=Ref("egm.games.prism_words.scene:PrismWordsScene"),
    attract=Ref("egm.games.prism_words.art:attract"),
    tile=Ref("egm.games.prism_words.art:tile"),
    info_pages=Ref("egm.games.prism_words.rules:info_pages"),
    lab_adapter=Ref("egm.games.prism_words.lab:PrismWordsLab"),
    replay=Ref("egm.games.prism_words.replay:replay_game"),
    screenshots=Ref("egm.games.prism_words.screenshots:RECIPES"),
    web="egm.games.prism_words:web",
    auto_play_label="BEST\nWORD",
    colour=(150, 60, 160),
)
