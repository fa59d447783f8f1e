"""Property declares itself to the cabinet, the shell, the lab and the command line (docs/games.md)."""

from egm.games.descriptor import GameDescriptor, Ref

DESCRIPTOR = GameDescriptor(
    id="property",
    title="Property",
    game=Ref("egm.games.property.game:PropertyGame"),
    paytable_model=Ref("egm.games.property.paytable:PropertyRules"),
    strategies=Ref("egm.games.property.strategy:MACHINE_STRATEGIES"),
    scene=Ref("egm.games.property.scene:PropertyScene"),
    attract=Ref("egm.games.property.art:attract"),
    tile=Ref("egm.games.property.art:tile"),
    info_pages=Ref("egm.games.property.rules:info_pages"),
    lab_adapter=Ref("egm.games.property.lab:PropertyLab"),
    replay=Ref("egm.games.property.replay:replay_game"),
    screenshots=Ref("egm.games.property.screenshots:RECIPES"),
    web="egm.games.property:web",
    auto_play_label="AUTO\nPLAY",
    colour=(150, 40, 40),
)
