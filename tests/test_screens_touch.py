"""Issue 31: the cabinet's screens, every page reachable by touch, every pay explained, no developer
words. Each item is driven through the headless shell with real pygame events (SDL dummy drivers) on
an injected clock, by touch where a cabinet has only its screen."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pygame
import pytest

from egm.config import load_cabinet_config
from egm.events import PlayerDecision, SelectGame
from egm.rom.manifest import read_manifest
from egm.video.end_panel import end_buttons
from egm.video.scenes.operator import METER_WORDS, PAGED
from egm.video.screenshot import credit, play_one, tab_centre
from egm.video.session import Session
from egm.video.theme import money

SNAKE_OR_ID = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\b[a-z]+(?:-[a-z0-9]+){1,}-(?:std|\d+opp)\b")


@pytest.fixture
def config(signed_tree):
    return load_cabinet_config(signed_tree.config_path)


@pytest.fixture
def session(config, tmp_path: Path):
    s = Session(config, tmp_path / "nvram", seed=7, game_ids=["dragon-poker", "poker-grid"])
    yield s
    s.close()


def drawn(s: Session) -> list[str]:
    s.render()
    return list(s.video.res.kit.drawn)


def touch_button(s: Session, action: str) -> None:
    """Touch the scene's button for `action` (it must be shown)."""
    button = next(b for b in s.video.scene.buttons(s.video.frame) if b.action == action)
    s.touch(*button.rect.center)


def pages_by_touch(s: Session, tab: str) -> list[list[str]]:
    """Open an operator tab by touch and touch NEXT PAGE until it goes dark: the words of each page."""
    s.touch(*tab_centre(tab))
    scene = s.video.scene
    pages = [drawn(s)]
    while next(b for b in scene.buttons(s.video.frame) if b.action == "page_older").lamp != "off":
        touch_button(s, "page_older")
        pages.append(drawn(s))
    assert len(pages) == scene.pages(s.video.frame)
    return pages


def flat_meters(meters: dict, titles: dict[str, str]) -> list[tuple[str, int]]:
    """Every meter the cabinet keeps, as (the words its label must hold, value)."""
    out = []
    for name, value in meters.items():
        if isinstance(value, dict):
            for key, inner in value.items():
                if isinstance(inner, dict):
                    out += [(f"{titles[key]} {n.replace('_', ' ')}".upper(), v) for n, v in inner.items()]
                else:
                    out.append((f"{money(int(key))} NOTES", inner))
        else:
            out.append((METER_WORDS.get(name, name.replace("_", " ")).upper(), value))
    return out


# --- 1: METERS on pages, by touch, with the games' titles ---------------------------------------------
def test_every_meter_is_reachable_by_touch_under_the_games_titles(session: Session) -> None:
    play_one(session, "dragon-poker")
    session.key("g")
    play_one(session, "poker-grid")
    session.key("f10")
    pages = pages_by_touch(session, "meters")
    assert len(pages) >= 2  # two games' meters do not fit on one page
    shown = [w for page in pages for w in page]
    games = session.cabinet.games
    titles = {"dragon-poker": "Dragon Poker", "poker-grid": "Poker Grid"}
    titles |= {g.paytable.id: f"{titles[gid]} v{g.paytable.version}" for gid, g in games.items()}
    record = session.cabinet.memory.meters.to_record()
    expected = flat_meters(record, titles)
    assert len(expected) > 28
    for label, _ in expected:
        assert label in shown, label
    assert not [w for w in shown if "DRAGON-POKER" in w or "POKER-GRID" in w]  # titles, not ids
    coin_in = record["per_game"]["poker-grid"]["coin_in"]
    label = shown.index("POKER GRID COIN IN")
    assert shown[label + 1] == money(coin_in)


def test_the_meters_page_turns_with_page_down_and_the_wheel(session: Session) -> None:
    play_one(session, "dragon-poker")
    session.key("g")
    play_one(session, "poker-grid")
    session.key("f10")
    session.touch(*tab_centre("meters"))
    scene = session.video.scene
    session.key("pagedown")
    assert scene.page == 1
    session.key("pageup")
    assert scene.page == 0
    session.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False, touch=False))
    assert scene.page == 1


# --- 2: ROM DETAILS shows every file of the manifest -------------------------------------------------
def test_rom_details_pages_through_every_manifest_file(session: Session, config) -> None:
    session.key("f10")
    pages = pages_by_touch(session, "rom")
    manifest = read_manifest(Path(config.rom.manifest))
    shown = [tuple(w.split()[::-1]) for page in pages for w in page if re.fullmatch(r"[0-9a-f]{64} +\S+", w)]
    assert shown == [(e.path, e.sha256) for e in manifest.files]  # all of them, in order, none twice
    for page in pages:
        assert "ROM DETAILS" in page and f"page {pages.index(page) + 1} of {len(pages)}" in page


@pytest.mark.parametrize("tab", PAGED)
def test_a_paged_tab_stops_at_its_ends(session: Session, tab: str) -> None:
    session.key("f10")
    pages = pages_by_touch(session, tab)
    scene = session.video.scene
    touch_button(session, "page_older")  # dark at the last page: nothing happens
    assert scene.page == len(pages) - 1
    for _ in pages:
        touch_button(session, "page_newer")
    assert scene.page == 0


# --- 3: a SETTINGS or RAM CLEAR lamp is lit only when its press can succeed ---------------------------------
def service_buttons(s: Session, prefix: str) -> list:
    return [b for b in s.video.scene.buttons(s.video.frame) if b.action.startswith(prefix)]


def test_with_credit_the_changes_it_forbids_are_dark_and_say_why(session: Session) -> None:
    credit(session)
    session.key("f10")
    session.touch(*tab_centre("settings"))
    denom, jurisdiction = (service_buttons(session, f"set:{name}:")[0]
                           for name in ("denomination_cents", "jurisdiction"))
    assert denom.lamp == jurisdiction.lamp == "off"
    before = session.cabinet.snapshot()
    for button in (denom, jurisdiction):
        session.video.toasts.clear()
        session.touch(*button.rect.center)
        assert any("credit" in t.text for t in session.video.toasts), button.action  # it says why
    after = session.cabinet.snapshot()
    assert after["settings"] == before["settings"] and after["jurisdiction"] == before["jurisdiction"]
    session.touch(*tab_centre("ram_clear"))
    ask = service_buttons(session, "ram_ask")[0]
    assert ask.lamp == "off"
    session.video.toasts.clear()
    session.touch(*ask.rect.center)
    assert not service_buttons(session, "ram_yes")  # no confirmation for a clear that would be refused
    refusal = "RAM clear refused: settle the $100.00 of credit"
    assert any(t.text.startswith(refusal) for t in session.video.toasts)


def test_every_lit_settings_lamp_is_accepted_when_pressed(session: Session) -> None:
    session.key("f10")  # no credit: every change may be made
    session.touch(*tab_centre("settings"))
    lit = [b.action for b in service_buttons(session, "set:") + service_buttons(session, "bets:")
           if b.lamp != "off"]
    assert any(a.startswith("set:denomination_cents:") for a in lit)
    assert any(a.startswith("set:jurisdiction:") for a in lit)
    for action in lit:
        kind = action.rsplit(":", 1)[0]
        button = next(b for b in service_buttons(session, kind) if b.lamp != "off")  # as now offered
        session.touch(*button.rect.center)
        last = session.cabinet.event_log(1)[0]
        assert last["kind"] != "refused", (action, last["message"])
    for level in session.cabinet.bet_levels("dragon-poker")[1:]:  # all levels but one turned off
        button = next(b for b in service_buttons(session, "bets:dragon-poker:") if b.label == f"{level:,}")
        session.touch(*button.rect.center)
    (last,) = session.cabinet.bet_levels("dragon-poker")
    for button in service_buttons(session, "bets:dragon-poker:"):  # only the last one's toggle is dark
        assert (button.lamp == "off") == (button.label == f"{last:,}"), button
    session.touch(*tab_centre("ram_clear"))
    ask = service_buttons(session, "ram_ask")[0]
    assert ask.lamp == "on"
    session.touch(*ask.rect.center)
    assert service_buttons(session, "ram_yes")


# --- 5: GAMES, back to the game menu by touch, for every game -------------------------------------------
def bar_button(s: Session, action: str):
    return next(b for b in s.video.bar_buttons() if b.action == action)


@pytest.mark.parametrize("game_id", ["dragon-poker", "poker-grid", "poker-tiles", "prism-words", "property"])
def test_games_returns_to_the_menu_by_touch_after_every_game(config, tmp_path: Path, game_id: str) -> None:
    s = Session(config, tmp_path / "nvram", seed=3)
    try:
        credit(s)
        s.video.send(SelectGame(game_id))
        s.key("space")  # DEAL
        assert s.state.startswith(f"game.{game_id}.")
        assert bar_button(s, "menu").lamp == "off"  # during the game: dark, and a press says why
        s.touch(*bar_button(s, "menu").rect.center)
        assert s.state.startswith(f"game.{game_id}.")
        assert any("finish this game first" in t.text for t in s.video.toasts)
        while s.cabinet.round is not None and s.state.startswith("game."):
            s.video.send(PlayerDecision(s.cabinet.round.reference_decision()))
            s.wait(0.1)
        s.wait(8.0)
        assert s.video.scene.name == game_id  # the finished table stays
        assert bar_button(s, "menu").lamp == "on"
        s.touch(*bar_button(s, "menu").rect.center)
        assert s.video.scene.name == "game-select"
        assert bar_button(s, "menu").lamp == "off"
    finally:
        s.close()


# --- 4: the event log in sentences, in money, to the second -----------------------------------------------
LOG_LINE = re.compile(r"#\d+  \d{4}-\d\d-\d\d \d\d:\d\d:\d\d  [A-Z$].*[.)]")


def test_the_event_log_reads_in_sentences_money_and_seconds(session: Session) -> None:
    session.key("f10")
    session.touch(*tab_centre("settings"))
    hand_pay = next(b for b in service_buttons(session, "set:hand_pay_limit_cents:"))
    session.touch(*hand_pay.rect.center)  # the lowest hand-pay limit: $250
    session.key("f10")
    for _ in range(3):
        credit(session)  # $300 of notes
    play_one(session, "dragon-poker")
    session.key("c")  # cash out past the hand-pay limit: a hand pay
    session.key("f11")  # the attendant pays it
    session.key("f11")
    session.key("f8")  # the main door, open and closed
    session.key("f8")
    credit(session)
    session.key("c")  # a ticket
    session.wait(5.0)
    session.key("escape")
    session.key("t")  # redeemed
    session.key("f10")
    lines = [w for page in pages_by_touch(session, "events") for w in page if w.startswith("#")]
    log = session.cabinet.event_log()
    assert len(lines) == len(log)
    kinds = {e["kind"] for e in log}
    assert {"bill_in", "hand_pay_reset", "ticket_out", "ticket_in", "setting_changed"} <= kinds
    for line in lines:
        assert LOG_LINE.fullmatch(line), line
        assert not SNAKE_OR_ID.search(line), line  # no kind, meter or state names
        assert not re.search(r"\d+(-| )cents?\b", line), line  # money, not cents
    words = " ".join(lines)
    assert "Note of $100.00 stacked and credited." in words
    assert re.search(r"hand pay of \$\d[\d,]*\.\d\d \(a cash-out\) paid\.", words)


# --- 13: Dragon Poker's jackpot, pair bonus and result wording --------------------------------------------
def test_a_fresh_jackpot_is_not_advertised_as_nothing(config, tmp_path: Path) -> None:
    s = Session(config, tmp_path / "nvram", seed=7, game_ids=["dragon-poker"])
    try:
        words = drawn(s)
        assert s.video.scene.name == "attract" and not s.cabinet.memory.get("pools")
        assert "JACKPOT $0.00" not in words and "THE JACKPOT GROWS WITH EVERY DRAGON WIN" in words
        s.key("f10")
        shown = [w for page in pages_by_touch(s, "meters") for w in page]
        assert "JACKPOT (WINS PAID BY HAND)" in shown and "JACKPOT" not in shown
    finally:
        s.close()


def test_the_pair_bonus_bet_shows_above_the_cards_in_the_singular(config, tmp_path: Path) -> None:
    from egm.games.dragon_poker.screenshots import set_step

    s = Session(config, tmp_path / "nvram", seed=7, game_ids=["dragon-poker"])
    try:
        credit(s)
        s.key("s")  # the pair bonus: 1 credit
        set_step(s)
        s.render()
        kit = s.video.res.kit
        assert "PAIR BONUS BET 1 CREDIT" in kit.drawn
        assert not [w for w in kit.drawn if re.search(r"\b1 CREDITS\b", w)]
    finally:
        s.close()


def test_a_hand_that_returns_less_than_its_stake_is_not_shown_as_a_pay(session: Session) -> None:
    from egm.money import pay_text

    for _ in range(40):
        play_one(session, "dragon-poker")
        outcome, stake = session.cabinet.last_outcome, session.video.frame.view.stake_credits
        win = outcome["win_cents"] // session.cabinet.denomination_cents
        if 0 < win < stake:
            break
        session.key("g")
    else:
        raise AssertionError("no hand in 40 returned part of its stake")
    words = drawn(session)
    banner = next(w for w in words if w.startswith("RESULT  -  "))
    assert banner == f"RESULT  -  {pay_text(win, stake)}" and "PAYS" not in banner
    assert f"RETURNS {win:,} OF THE {stake:,} CREDITS STAKED" in banner


# --- 14: the attract screen's lamps belong to the game shown ----------------------------------------------
def test_the_attract_lamps_belong_to_the_game_it_shows(config, tmp_path: Path) -> None:
    from egm.games import descriptor_of
    from egm.video.scenes.attract import GAME_S

    s = Session(config, tmp_path / "nvram", seed=7)
    try:
        seen = set()
        for _ in s.cabinet.games:
            assert s.video.scene.name == "attract"
            gid = s.video.scene.game_shown(s.video.frame)
            seen.add(gid)
            words = drawn(s)
            assert descriptor_of(gid).title.upper() in words
            lamps = {b.action: b for b in s.video.bar_buttons()}
            assert lamps["auto_play"].label == descriptor_of(gid).auto_play_label
            has_side_bet = bool(s.cabinet.games[gid].wager_offer().side_bet_limits)
            assert (lamps["side_bet"].lamp != "off") == has_side_bet, gid
            assert s.video.game_shown() == gid  # DEAL would start this game
            s.wait(GAME_S)
        assert seen == set(s.cabinet.games)
    finally:
        s.close()


# --- 8: everything on screen in the denomination in force ------------------------------------------------
def test_after_a_cash_out_resets_the_denomination_no_old_credits_stay_on_screen(session: Session) -> None:
    session.key("d")  # DENOM: 5 cents a credit
    assert session.cabinet.denomination_cents == 5
    play_one(session, "dragon-poker")
    assert session.video.scene.name == "dragon-poker"
    session.key("c")  # cash out: the denomination returns to the default
    session.wait(5.0)
    session.key("escape")
    session.key("t")  # the ticket back in
    session.wait(1.0)
    denom = session.cabinet.denomination_cents
    assert denom == 1
    words = drawn(session)
    assert session.video.scene.name == "game-select"  # the 5-cent table left with its 5-cent credits
    assert not any(re.match(r"STAKE \d", w) for w in words)  # the table's own stake line
    credit_box = f"{session.cabinet.credits_cents // denom:,}"
    assert credit_box in words and "WIN  $0.00" in " ".join(words)


# --- 9: "bet" is the level, "stake" is what a game takes, on every page ---------------------------------
def test_the_meter_shows_the_stake_and_the_bet_is_the_level(session: Session) -> None:
    credit(session)
    session.key("b")  # BET ONE: the next level
    choice = session.video.wager("dragon-poker")
    assert choice is not None
    assert (f"Bet {choice.bet_credits:,} credits: a game stakes {choice.stake_credits:,} credits "
            f"({money(choice.stake_credits)})") in [t.text for t in session.video.toasts]
    play_one(session, "dragon-poker")
    words = drawn(session)
    stake = session.video.frame.view.stake_credits
    assert any(w.startswith("STAKE  $") for w in words) and not any(w.startswith("BET  $") for w in words)
    assert f"STAKE {stake:,} CREDITS" in words  # the table's stake is the meter's
    assert f"{stake:,}" in words


# --- 6: every board game's end screen says the result, what paid and why, and the pay ---------------------
def play_to_end(s: Session, game_id: str) -> None:
    credit(s)
    s.video.send(SelectGame(game_id))
    s.key("space")  # DEAL
    while s.cabinet.round is not None and s.state.startswith("game."):
        s.video.send(PlayerDecision(s.cabinet.round.reference_decision()))
        s.wait(0.1)
    s.wait(8.0)


@pytest.mark.parametrize("game_id", ["poker-grid", "poker-tiles", "prism-words", "property"])
def test_a_board_game_end_screen_explains_its_pay(config, tmp_path: Path, game_id: str) -> None:
    from egm.money import pay_text

    s = Session(config, tmp_path / "nvram", seed=5)
    try:
        play_to_end(s, game_id)
        view = s.video.frame.view
        assert view is not None and view.win_credits is not None
        pays = view.table["pays"]
        assert sum(units for _, units in pays) * view.bet_credits == view.win_credits  # the reasons add up
        words = drawn(s)
        assert view.result_text in words
        for reason, _ in pays:
            assert any(w.startswith(reason) and " x bet = " in w for w in words), reason
        paid = money(view.win_credits * s.cabinet.denomination_cents)
        assert f"{pay_text(view.win_credits, view.stake_credits)} ({paid})" in words
        assert not [w for w in words if SNAKE_OR_ID.search(w)]
        if game_id == "property":
            assert view.result_text.endswith("BOARD MONEY") or view.result_text == "A TIE"
            assert not [w for w in words if "MONOPOLY" in w.upper() or "SEAT" in w]
        target = next(b for b in end_buttons(s.video.frame, end_box(s)) if b.label == "GAME MENU")
        s.touch(*target.rect.center)
        assert s.video.scene.name == "game-select"
    finally:
        s.close()


def end_box(s: Session) -> pygame.Rect:
    """The end screen's box of the scene on the table (Poker Grid's is its side panel)."""
    module = sys.modules[type(s.video.scene).__module__]
    return getattr(module, "END", None) or module.SIDE


# --- 7: no ids on the player's screens ----------------------------------------------------------------------
def test_help_pages_and_the_grid_log_carry_no_ids(config, tmp_path: Path) -> None:
    from egm.video.overlays import help_pages

    s = Session(config, tmp_path / "nvram", seed=5)
    try:
        for gid, game in s.cabinet.games.items():
            text = " ".join(line for page in help_pages(game) for line in (page.title, *page.lines))
            assert game.paytable.id not in text and "(s)" not in text and "ENABLE" not in text, gid
        credit(s)
        s.video.send(SelectGame("poker-grid"))
        s.key("space")
        for _ in range(3):
            s.video.send(PlayerDecision(s.cabinet.round.reference_decision()))
            s.wait(0.5)
        words = drawn(s)
        moves = [w for w in words if w.startswith(("YOU: ", "MACHINE: "))]
        assert moves and all(re.search(r"[♣♦♥♠]|JOKER", w) for w in moves), moves
        assert not [w for w in moves if re.search(r" at \d+,\d+", w)]
    finally:
        s.close()


# --- 10: help pages re-flow, keep the footer clear, and write board money as money ------------------
def test_help_pages_reflow_and_write_margins_as_money(config, tmp_path: Path) -> None:
    from egm.video.overlays import HELP_RECT, help_pages

    s = Session(config, tmp_path / "nvram", seed=5)
    try:
        kit = s.video.res.kit
        for gid, game in s.cabinet.games.items():
            text = " ".join(line for page in help_pages(game) for line in page.lines)
            assert "$+" not in text and "$-" not in text, gid
            assert "takes the machine's turn" not in text, gid
        s.video.send(SelectGame("property"))
        s.key("f1")
        for page in range(len(s.video.help_pages())):
            s.render()
            footer = next(w for w in kit.drawn if w.startswith(f"Page {page + 1} of "))
            rows = kit.drawn[1:kit.drawn.index(footer)]
            assert rows and all(kit.font(30).size(w)[0] <= HELP_RECT.width - 100 for w in rows
                                if not w.isupper())  # re-flowed to the page, never past it
            s.touch(960, 500)
    finally:
        s.close()


# --- proof: no id or snake_case on the player's or attendant's screens; every lit lamp's press is taken ---
PLAYER_SCREENS = (
    "attract", "game-select", "ticket", "hand-pay", "tilt", "help", "help-rules", "help-paytable", "side-bet",
    "denomination", "dragon-settled", "dragon-set", "poker-grid-complete", "poker-tiles-complete",
    "prism-words-complete", "property-end", "property-board", "operator", "service-events",
    "service-settings", "service-pools", "service-devices",
)
PAYTABLE_ID = re.compile(r"\b[a-z]+(?:-[a-z]+)*-(?:std|test|\d+opp)\b")


@pytest.mark.parametrize("scene", PLAYER_SCREENS)
def test_no_id_or_snake_case_reaches_a_rendered_string(config, tmp_path: Path, scene: str) -> None:
    from egm.video.screenshot import recipes

    s = Session(config, tmp_path / "nvram", seed=5)
    try:
        recipes()[scene](s)
        words = drawn(s)
        assert words
        assert not [w for w in words if SNAKE_OR_ID.search(w) or PAYTABLE_ID.search(w)], scene
        for action in [b.action for b in s.video.bar_buttons() if b.action != "drawer"]:
            button = next(b for b in s.video.bar_buttons() if b.action == action)  # as lit now
            if button.lamp == "off" or action == "help":
                continue
            s.video.toasts.clear()
            s.touch(*button.rect.center)  # a lit lamp's press is taken: no refusal is shown
            assert not [t.text for t in s.video.toasts if t.error], (scene, action)
    finally:
        s.close()


# --- 11: Poker Grid: a line the machine extends keeps the player's outline ---------------------------------
def test_a_players_scoring_card_keeps_its_colour_when_the_machine_extends_it(config, tmp_path: Path) -> None:
    from egm.games.poker_grid.scene import square_rect
    from egm.video.theme import CYAN, RED

    for seed in range(1, 9):
        s = Session(config, tmp_path / f"nvram{seed}", seed=seed, game_ids=["poker-grid"])
        try:
            credit(s)
            s.key("space")
            while s.cabinet.round is not None and s.state.startswith("game."):
                plays = s.video.frame.table.get("last_plays", [])
                mine = {tuple(c) for m in plays if m["seat"] == 0 for c in m["cells"]}
                shared = [tuple(c) for m in plays if m["seat"] != 0 for c in m["cells"] if tuple(c) in mine]
                if shared and plays[-1]["seat"] != 0:
                    s.wait(2.0)
                    surface = s.render()
                    rect = square_rect(*shared[0])
                    outer = surface.get_at((rect.centerx, rect.y + 1))[:3]
                    inner = surface.get_at((rect.centerx, rect.y + 6))[:3]
                    assert outer == CYAN and inner == RED, (outer, inner)
                    return
                s.video.send(PlayerDecision(s.cabinet.round.reference_decision()))
                s.wait(0.2)
        finally:
            s.close()
    raise AssertionError("no machine play extended the player's line in seeds 1-8")


# --- 15: Poker Tiles: no label fragments around a tile on the centre ----------------------------------
def test_the_starting_zone_label_is_hidden_under_a_tile(config, tmp_path: Path) -> None:
    s = Session(config, tmp_path / "nvram", seed=5)
    try:
        play_to_end(s, "poker-tiles")
        table = s.video.frame.table
        row, col = table["centre"]
        assert table["board"][row][col] is not None  # the first play covers the centre
        words = drawn(s)
        assert "STARTING" not in words and "ZONE" not in words
    finally:
        s.close()
