"""Issue 18: the cabinet as players and technicians expect it. Each reported defect is reproduced
here through the headless shell (real pygame events on an injected clock, SDL dummy drivers)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from egm.config import load_cabinet_config
from egm.events import ChangeSetting, RamClear
from egm.games.dragon_poker.screenshots import set_step
from egm.video.screenshot import credit, play_one, tab_centre
from egm.video.session import Session
from egm.video.theme import money

GAME = ["dragon-poker"]


@pytest.fixture
def config(signed_tree):
    return load_cabinet_config(signed_tree.config_path)


@pytest.fixture
def session(config, tmp_path: Path):
    s = Session(config, tmp_path / "nvram", seed=7, game_ids=GAME)
    yield s
    s.close()


def drawn(s: Session) -> list[str]:
    """Every text the shell drew in a fresh frame."""
    s.render()
    return list(s.video.res.kit.drawn)


def toasts(s: Session) -> list[str]:
    return [t.text for t in s.video.toasts]


def start_reveal(s: Session) -> None:
    """A Dragon hand set the house way: the round is settled and its reveal has begun."""
    set_step(s)
    s.key("h")
    s.wait(0.2)
    assert s.video.scene.busy(s.video.frame)


def reveal_moving_the_jackpot(s: Session) -> tuple[int, int]:
    """Play hands until one's reveal changes the jackpot; return (before, after) in cents."""
    for _ in range(30):
        start_reveal(s)
        pays = s.video.frame.view.table["money"]
        if pays["pool_before_cents"] != pays["pool_after_cents"]:
            return pays["pool_before_cents"], pays["pool_after_cents"]
        s.wait(8.0)
    raise AssertionError("no hand moved the jackpot in 30 hands")


# --- the reveal is never skipped -----------------------------------------------------------------
def test_game_menu_key_during_the_reveal_is_refused(session: Session) -> None:
    start_reveal(session)
    number = session.video.frame.round_number
    session.key("g")
    assert session.video.frame.round_number == number  # still the same hand on the table
    assert session.video.scene.name == "dragon-poker" and session.video.scene.busy(session.video.frame)
    assert "Please wait" in " ".join(toasts(session))
    session.wait(8.0)
    session.key("g")  # once revealed, G goes to the game menu
    assert session.video.scene.name == "game-select"


def test_meters_wait_for_the_reveal(session: Session) -> None:
    before, after = reveal_moving_the_jackpot(session)
    credit_before = session.cabinet.credits_cents - session.cabinet.last_outcome["win_cents"]
    words = drawn(session)
    assert money(before) in words and money(after) not in words  # the jackpot meter keeps its old value
    denom = session.cabinet.config.denomination_cents
    assert f"{credit_before // denom:,}" in words  # the credit meter still shows the credit before the win
    session.wait(8.0)
    words = drawn(session)
    assert money(after) in words
    assert f"{session.cabinet.credits_cents // denom:,}" in words


# --- a power cut during the reveal ------------------------------------------------------------------
def test_after_a_power_cut_during_the_reveal_the_last_game_is_shown(config, tmp_path: Path) -> None:
    first = Session(config, tmp_path / "nvram", seed=7, game_ids=GAME)
    credit(first)
    first.key("b")
    first.key("b")  # bet 5: a stake of 50 credits
    stake = first.video.stake_credits()
    assert stake != first.cabinet.games["dragon-poker"].default_wager(config.denomination_cents).stake_credits
    for key in ("space", "1", "2", "3", "return", "h"):
        first.key(key)
    first.wait(0.2)
    assert first.video.scene.busy(first.video.frame)
    outcome = first.cabinet.last_outcome
    first.close()  # the power is cut: nothing more is written

    again = Session(config, tmp_path / "nvram", seed=7, game_ids=GAME)
    try:
        assert again.video.scene.name == "dragon-poker"  # the table, not the game menu
        view = again.video.frame.view
        assert view is not None and view.step == "complete"
        assert again.video.frame.round_number == outcome["number"]
        assert again.video.stake_credits() == stake  # the bet level in force for that game
        words = drawn(again)
        assert f"{stake:,}" in words
        win = outcome["win_cents"] // config.denomination_cents
        assert f"{win:,}" in words  # the win of that game
        assert any(w.startswith(("RESULT", "JACKPOT")) for w in words)
    finally:
        again.close()


# --- RAM clear ----------------------------------------------------------------------------------------
def test_ram_clear_is_refused_while_credit_remains(session: Session) -> None:
    credit(session)
    session.key("f10")
    assert session.state == "audit"
    result = session.cabinet.handle(RamClear())
    assert not result.accepted
    assert "$100.00" in result.reason and "credit" in result.reason
    assert session.cabinet.credits_cents == 10000
    assert any(e["kind"] == "refused" for e in session.cabinet.event_log(5))


def test_ram_clear_is_refused_during_a_game(session: Session) -> None:
    credit(session)
    session.key("space")
    session.key("f10")
    assert session.state == "audit"
    result = session.cabinet.handle(RamClear())
    assert not result.accepted and "game" in result.reason


def test_ram_clear_with_nothing_owed_records_the_final_meters(session: Session) -> None:
    credit(session)
    session.key("c")  # cash out: the credit leaves on a ticket
    session.wait(5.0)
    session.key("f10")
    coin_in = session.cabinet.memory.meters["coin_in"]
    result = session.cabinet.handle(RamClear())
    assert result.accepted
    entry = next(e for e in session.cabinet.event_log() if e["kind"] == "ram_clear")
    assert entry["detail"]["final_meters"]["coin_in"] == coin_in
    assert entry["detail"]["final_meters"]["current_credits"] == 0


# --- the player's words ---------------------------------------------------------------------------------
INTERNAL = re.compile(r"in state|game\.[a-z]|\[|\]|\d-cent|\d cents|\d{4}-\d\d-\d\dT|seat \d|_")


def assert_player_words(text: str) -> None:
    assert not INTERNAL.search(text), text
    assert text[:1].isupper() and text.rstrip().endswith("."), text


def test_refusals_on_the_player_screen_are_sentences(session: Session) -> None:
    session.key("space")  # DEAL at 0 credits
    stake = [t for t in toasts(session) if "costs" in t]
    assert stake and "$" in stake[0]
    credit(session)
    session.key("space")
    session.key("c")  # CASH OUT during a game
    session.key("f2")  # a note during a game
    words = toasts(session)
    assert any("Cash out when the game is over" in t for t in words)
    assert any("note was returned" in t for t in words)
    for text in stake + words:
        assert_player_words(text)


def test_an_already_redeemed_ticket_is_refused_in_words(session: Session) -> None:
    credit(session)
    session.key("c")
    session.wait(5.0)
    session.key("t")  # redeem the ticket
    assert session.cabinet.credits_cents == 10000
    session.key("c")
    session.wait(5.0)
    printed = session.video._printed()
    acceptor = session.cabinet.devices.bill_acceptor
    acceptor.insert_ticket(printed[0].validation_number, printed[0].amount_cents)  # the first, again
    session.video._report_device_results()
    refusal = next(t for t in toasts(session) if "already redeemed" in t)
    assert_player_words(refusal)
    assert session.cabinet.credits_cents == 0


def test_poker_grid_counts_squares_from_one_like_its_move_log() -> None:
    from egm.games.poker_grid.board import Layout
    from egm.games.poker_grid.paytable import EXAMPLE, PokerGridRules
    from egm.games.poker_grid.table import IllegalPlacement, Table

    table = Table(Layout.from_rules(PokerGridRules.model_validate(EXAMPLE)), 5, 2, list(range(54)))
    starter = table.layout.starter_squares[0]
    row, col = table.layout.row_col(starter)
    with pytest.raises(IllegalPlacement) as refused:
        table.check(0, table.hands[0][0], starter)
    assert f"row {row + 1}, column {col + 1}" in str(refused.value)


# --- lamps: lit exactly when pressing acts ---------------------------------------------------------------
def test_lamps_are_dark_when_pressing_does_nothing_and_say_why(session: Session) -> None:
    lamps = session.video.lamps()
    assert lamps["cash_out"] == "off" and lamps["deal"] == "off"  # no credit
    session.key("c")
    assert "There is no credit to cash out." in toasts(session)
    credit(session)
    assert session.video.lamps()["cash_out"] == "on" and session.video.lamps()["deal"] == "flash"
    session.key("space")
    assert session.video.lamps()["deal"] == "off"  # designation incomplete
    session.key("space")
    assert "Choose the Player's hand first: touch it or press 1-4." in toasts(session)
    assert session.state == "game.dragon-poker.designate"
    for key in ("1", "2", "3"):
        session.key(key)
    assert session.video.lamps()["deal"] == "flash"
    session.key("space")  # DEAL confirms the hands
    assert session.state == "game.dragon-poker.set"
    assert session.video.lamps()["deal"] == "off"  # the hand is not placed yet
    session.key("h")
    session.wait(0.2)
    lamps = session.video.lamps()
    assert lamps["cash_out"] == lamps["bet_one"] == lamps["side_bet"] == lamps["deal"] == "off"  # reveal
    session.wait(8.0)
    assert session.video.lamps()["deal"] == "flash"


def test_play_again_is_dark_when_the_credit_cannot_pay_for_it(session: Session) -> None:
    start_reveal(session)
    session.wait(8.0)
    play_again = session.video.scene.settled_buttons(session.video.frame)[0]
    assert play_again.lamp == "flash"
    session.key("c")  # cash everything out; the hand stays on the table
    session.wait(5.0)
    session.key("escape")
    assert session.video.scene.name == "dragon-poker"
    play_again = session.video.scene.settled_buttons(session.video.frame)[0]
    assert play_again.lamp == "off"
    session.click(*play_again.rect.center)  # pressed dark, it says why
    assert any("costs" in t for t in toasts(session))
    assert session.state == "attract"


# --- one unit per figure, one name per seat ---------------------------------------------------------------
def test_the_ledger_and_scoreboard_speak_credits_money_and_seat_names(session: Session) -> None:
    start_reveal(session)
    session.wait(8.0)
    words = drawn(session)
    jackpot = words[words.index("Jackpot now") + 1]
    assert jackpot == money(session.cabinet.memory.get("pools")["dragon_jackpot"])
    assert "LEDGER (CREDITS)" in words or "POINTS LEDGER" not in words
    assert not [w for w in words if re.fullmatch(r"[PHD]\d|S", w)]  # no scoreboard codes
    assert any(w.startswith(("PLAYER ", "DEALER ", "DRAGON ", "SPLIT")) for w in words)
    assert not [w for w in words if "POINTS" in w.upper()]


# --- Poker Grid's end screen ------------------------------------------------------------------------------
@pytest.mark.parametrize("button", ["PLAY AGAIN", "GAME MENU"])
def test_poker_grid_end_screen_pays_explains_and_offers_the_next_step(config, tmp_path: Path, button) -> None:
    s = Session(config, tmp_path / "nvram", seed=3, game_ids=["poker-grid"])
    try:
        play_one(s, "poker-grid")
        view = s.video.frame.view
        assert view is not None and view.win_credits is not None
        words = drawn(s)
        assert f"PAYS {view.win_credits:,} CREDITS ({money(view.win_credits)})" in words
        assert any(w.startswith("Margin ") and "x bet" in w for w in words)
        assert "PLAY AGAIN" in words and "GAME MENU" in words
        target = next(b for b in s.video.scene.end_buttons(s.video.frame) if b.label == button)
        s.click(*target.rect.center)
        if button == "PLAY AGAIN":
            assert s.state == "game.poker-grid.play"
        else:
            assert s.video.scene.name == "game-select"
    finally:
        s.close()


# --- the wager: BET ONE, MAX BET and the pair-bonus side bet -------------------------------------------
def test_the_pair_bonus_side_bet_is_placed_before_the_deal_metered_and_settled(session: Session) -> None:
    credit(session)
    limit = session.cabinet.games["dragon-poker"].paytable.rules.pair_bonus.max_bet_credits
    amounts = []
    for _ in range(6):
        session.key("s")
        amounts.append(sum(session.video.wager("dragon-poker").side_bets.values()))
    assert amounts == [1, 2, 5, limit, 0, 1] and max(amounts) <= limit  # within the pay table's limit
    session.key("s")  # 2 credits on the pair bonus
    assert any("SIDE 2" in w for w in drawn(session))  # the BET meter shows it
    before = session.cabinet.memory.meters["coin_in"]
    session.key("space")
    wager = session.cabinet.round.wager
    assert wager.side_bets == {"pair_bonus": 2} and wager.stake_credits == 10 * wager.bet_credits + 2
    assert session.cabinet.memory.meters["coin_in"] - before == wager.stake_credits  # metered as coin in
    for key in ("1", "2", "3", "return"):
        session.key(key)
    assert "PAIR BONUS BET 2 CREDITS" in drawn(session)  # placed, not yet revealed
    session.key("h")
    session.wait(8.0)
    pair = session.video.frame.view.table["pair_bonus"]
    words = drawn(session)
    if pair["win_credits"]:
        assert f"PAIR BONUS PAYS {pair['win_credits']:,} CREDITS" in words
    else:
        assert "PAIR BONUS: NO PAIR, 2 CREDITS LOST" in words
    outcome = session.cabinet.last_outcome
    assert outcome["stake_cents"] == wager.stake_credits * wager.denom_cents


def test_max_bet_sets_the_largest_bet_and_deals(session: Session) -> None:
    credit(session)
    session.key("b")
    assert session.video.wager("dragon-poker").bet_credits == 2  # BET ONE: the next bet
    session.key("x")  # MAX BET
    assert session.state == "game.dragon-poker.designate"
    offered = session.cabinet.games["dragon-poker"].bets_offered()
    assert session.cabinet.round.wager.bet_credits == max(offered)


def test_side_bet_on_a_game_without_one_says_so(config, tmp_path: Path) -> None:
    s = Session(config, tmp_path / "nvram", seed=3, game_ids=["poker-grid"])
    try:
        credit(s)
        assert s.video.lamps()["side_bet"] == "off"
        s.key("s")
        assert "Poker Grid has no side bet." in toasts(s)
        assert s.video.wager("poker-grid").side_bets == {}
    finally:
        s.close()


# --- settings, credit limit, pool meters ------------------------------------------------------------
def test_a_setting_change_is_logged_with_old_and_new_and_kept(config, tmp_path: Path) -> None:
    s = Session(config, tmp_path / "nvram", seed=7, game_ids=GAME)
    s.key("f10")
    assert not s.cabinet.handle(ChangeSetting("volume_percent", 200)).accepted
    assert s.cabinet.handle(ChangeSetting("credit_limit_cents", 5000)).accepted
    assert s.cabinet.handle(ChangeSetting("hand_pay_limit_cents", 100000)).accepted
    refused = s.cabinet.handle(ChangeSetting("hand_pay_limit_cents", 10_000_000))
    assert not refused.accepted and "jurisdiction" in refused.reason
    entry = next(e for e in s.cabinet.event_log() if e["kind"] == "setting_changed")
    assert entry["detail"] == {"setting": "hand_pay_limit_cents", "old": 120000, "new": 100000}
    assert entry["message"] == "Hand-pay limit changed from $1,200.00 to $1,000.00."
    s.close()
    again = Session(config, tmp_path / "nvram", seed=7, game_ids=GAME)
    try:
        assert again.cabinet.credit_limit_cents == 5000
        assert again.cabinet.jurisdiction.hand_pay_limit_cents == 100000
    finally:
        again.close()


def test_a_bill_past_the_credit_limit_is_returned_with_a_message(session: Session) -> None:
    session.key("f10")
    assert session.cabinet.handle(ChangeSetting("credit_limit_cents", 15000)).accepted
    session.key("f10")
    session.key("f7")  # $100
    session.key("f7")  # another $100 would make $200, past the $150 limit
    assert session.cabinet.credits_cents == 10000
    refusal = next(t for t in toasts(session) if "limit" in t)
    assert "$150.00" in refusal and "returned" in refusal
    assert_player_words(refusal)


def test_the_denomination_changes_only_with_no_credit(session: Session) -> None:
    credit(session)
    session.key("f10")
    refused = session.cabinet.handle(ChangeSetting("denomination_cents", 5))
    assert not refused.accepted and "no credit" in refused.reason
    assert session.cabinet.config.denomination_cents == 1


def test_pool_meters_add_up_what_the_jackpot_takes_and_pays(session: Session) -> None:
    before, after = reveal_moving_the_jackpot(session)
    pool = session.cabinet.memory.get("pool_meters")["dragon_jackpot"]
    paid_in = sum(pool["paid_in_cents"].values())
    won = sum(pool["won_cents"].values())
    assert paid_in - won + pool["seed_cents"] == after  # the pool started at 0: every cent accounted for


# --- service pages -------------------------------------------------------------------------------------
def open_tab(s: Session, tab: str) -> list[str]:
    s.click(*tab_centre(tab))
    return drawn(s)


def test_service_pages_show_devices_settings_pools_log_and_rom(session: Session) -> None:
    start_reveal(session)
    session.wait(8.0)
    session.key("f10")
    words = open_tab(session, "devices")
    for device in ("Bill acceptor", "Printer", "Paper level", "Panel link", "Speaker"):
        assert device in words
    words = open_tab(session, "pools")
    jackpot = session.cabinet.memory.get("pools")["dragon_jackpot"]
    assert words[words.index("Dragon Jackpot: current value") + 1] == money(jackpot)
    assert "Dragon Jackpot: total contributed" in words and "Dragon Jackpot: total won" in words
    words = open_tab(session, "rom")
    game = session.cabinet.games["dragon-poker"]
    assert any(game.paytable.id in w and game.paytable.sha256 in w for w in words)
    assert any(w.startswith("Last check:") and "at power-up: all" in w for w in words)
    assert any(w.endswith("  egm/__init__.py") for w in words)  # a program file with its hash
    words = open_tab(session, "settings")
    assert "Credit limit" in words
    change = next(b for b in session.video.scene.buttons(session.video.frame)
                  if b.action.startswith("set:credit_limit_cents:"))
    session.click(*change.rect.center)
    assert session.cabinet.credit_limit_cents == int(change.action.split(":")[2])
    assert session.cabinet.event_log(1)[0]["kind"] == "setting_changed"
    words = open_tab(session, "events")
    assert words[0].startswith("EVENT LOG") or any(w.startswith("EVENT LOG") for w in words)


def test_the_event_log_pages_back_to_its_first_entry(session: Session) -> None:
    for _ in range(12):
        session.key("f8")  # door open and close: two entries each, and a ROM check
        session.key("f8")
    session.key("f10")
    open_tab(session, "events")
    scene = session.video.scene
    pages = scene.pages(session.video.frame)
    assert pages >= 3
    older = next(b for b in scene.buttons(session.video.frame) if b.action == "page_older")
    for _ in range(pages + 2):
        session.click(*older.rect.center)
    words = drawn(session)
    assert any(w.startswith(f"EVENT LOG (newest first): page {pages} of {pages}") for w in words)
    assert any("memory_initialised" in w for w in words)  # the first entry ever written


# --- the device drawer's bad money ----------------------------------------------------------------------
def drawer_press(s: Session, action: str) -> None:
    s.key("tab")
    button = next(b for b in s.video.drawer_buttons() if b.action == action)
    s.click(*button.rect.center)
    s.video.overlay = None


def test_the_drawer_offers_bad_money_each_refused_and_no_credit_moves(session: Session) -> None:
    credit(session)
    session.key("c")  # a $100 ticket
    session.wait(5.0)
    session.key("escape")
    session.key("t")  # redeemed: $100 back on the meter
    session.key("c")  # and a second ticket
    session.wait(5.0)
    session.key("escape")
    credits, meters_before = session.cabinet.credits_cents, dict(session.cabinet.memory.meters.to_record())
    expected = {
        "counterfeit": "not recognised as genuine",
        "bad_ticket:forged": "not issued by this machine",
        "bad_ticket:redeemed": "already redeemed",
        "bad_ticket:expired": "expired on",
    }
    for action, words in expected.items():
        if action == "bad_ticket:expired":
            session.clock.advance(31 * 24 * 3600)  # the second ticket is now past its 30 days
        session.video.toasts.clear()
        drawer_press(session, action)
        refusal = next((t for t in toasts(session) if words in t), None)
        assert refusal is not None, (action, toasts(session))
        assert_player_words(refusal)
        assert session.cabinet.credits_cents == credits == 0
    assert dict(session.cabinet.memory.meters.to_record()) == meters_before


# --- help, rules and pay screens from the signed pay table --------------------------------------------
def test_help_pages_are_generated_from_the_pay_table_the_cabinet_runs(session: Session) -> None:
    game = session.cabinet.games["dragon-poker"]
    credit(session)
    session.key("f1")
    titles = [page.title for page in session.video.help_pages()]
    assert titles[1:] == ["DRAGON POKER: HOW TO PLAY", "DRAGON POKER: POINTS TABLE", "THE DRAGON JACKPOT",
                          "PAIR BONUS (SIDE BET)"]
    pages = {page.title: "\n".join(page.lines) for page in session.video.help_pages()}
    rules = game.paytable.rules
    assert f"Win three rows\t{rules.win_points.three_rows} x bet" in pages["DRAGON POKER: POINTS TABLE"]
    for hand, pays in rules.pair_bonus.pays_to_one.items():
        assert f"{hand.replace('_', ' ').title()}\t{pays} to 1" in pages["PAIR BONUS (SIDE BET)"]
    assert "takes the whole jackpot" in pages["THE DRAGON JACKPOT"]
    for _ in range(2):
        session.click(960, 540)  # a touch turns the page
    assert "DRAGON POKER: POINTS TABLE" in drawn(session)
    # another pay table, other figures: nothing is written by hand
    other = rules.model_copy(update={"win_points": rules.win_points.model_copy(update={"three_rows": 7})})
    from egm.games.dragon_poker.rules import info_pages

    changed = info_pages(type(game.paytable)(**{**vars(game.paytable), "rules": other}))
    assert "Win three rows\t7 x bet" in changed[1].lines


def test_poker_grid_margin_pays_cover_every_margin(config, tmp_path: Path) -> None:
    from egm.games.poker_grid.rules import info_pages

    s = Session(config, tmp_path / "nvram", seed=3, game_ids=["poker-grid"])
    try:
        paytable = s.cabinet.games["poker-grid"].paytable
        pays = info_pages(paytable)[1]
        assert pays.title == "POKER GRID: MARGIN PAYS"
        tiers = sorted(paytable.rules.result_pays, key=lambda t: t.min_margin, reverse=True)
        rows = [line for line in pays.lines if "\t" in line]
        assert [row.split("\t")[1] for row in rows] == [f"{t.pays} x bet" for t in tiers] + ["nothing"]
    finally:
        s.close()


def test_a_win_that_locks_up_for_a_hand_pay_is_revealed_first(session: Session) -> None:
    session.key("f10")
    assert session.cabinet.handle(ChangeSetting("hand_pay_limit_cents", 1)).accepted  # every win hand paid
    session.key("f10")
    for _ in range(10):
        start_reveal(session)
        if session.cabinet.state == "handpay":
            break
        session.wait(8.0)
    assert session.cabinet.state == "handpay"
    assert session.video.scene.name == "dragon-poker" and session.video.scene.busy(session.video.frame)
    session.wait(8.0)
    assert session.video.scene.name == "hand-pay"


# --- animation: the deal, the flip, the roll-up and the celebration -------------------------------------
def test_the_deal_lays_cards_one_by_one_and_a_press_hurries_it_and_acts(session: Session) -> None:
    credit(session)
    session.key("space")
    scene = session.video.scene
    assert scene.cards_dealt(session.video.frame) == 0
    session.wait(0.5)
    dealt = scene.cards_dealt(session.video.frame)
    assert 0 < dealt < 54
    session.key("1")  # the press lays every card at once, and designates hand A
    assert scene.cards_dealt(session.video.frame) == 54 and scene.chosen == ["A"]


def test_a_jackpot_win_is_celebrated_after_its_reveal_until_a_press(config, tmp_path: Path) -> None:
    from egm.games.dragon_poker.screenshots import jackpot

    s = Session(config, tmp_path / "nvram", seed=1, game_ids=GAME)
    try:
        jackpot(s)
        view = s.video.frame.view
        assert view is not None and view.pools_won_cents
        s.video.rollup_start = s.video.frame.now  # as the reveal ends
        won = money(sum(view.pools_won_cents.values()))
        assert "JACKPOT!" in drawn(s) and f"YOU WIN {won}" in drawn(s)
        s.key("escape")  # not a press of the game: the celebration goes on
        assert "JACKPOT!" in drawn(s)
        s.click(960, 700)
        assert "JACKPOT!" not in drawn(s)
    finally:
        s.close()


def test_the_screen_ticket_says_what_the_printer_prints(session: Session) -> None:
    from hardware.ticket_text import ticket_text

    credit(session)
    session.key("f2")  # $101.00 in all: "ONE HUNDRED ONE DOLLARS AND ZERO CENTS"
    session.key("c")
    session.wait(5.0)
    printed = session.video._printed()[-1]
    words = drawn(session)
    text = ticket_text(printed)
    for field in (text.amount_words, text.amount_figures, text.validation, text.expiry, text.machine):
        assert field in words, field


def test_after_the_operator_changes_the_denomination_games_are_played_in_it(session: Session) -> None:
    session.key("f10")
    assert session.cabinet.handle(ChangeSetting("denomination_cents", 5)).accepted
    session.key("f10")
    credit(session)  # $100: 2,000 credits of 5 cents
    assert "2,000" in drawn(session)
    session.key("space")
    wager = session.cabinet.round.wager
    assert wager.denom_cents == 5 and session.cabinet.memory.meters["coin_in"] == wager.stake_credits * 5


def test_recall_speaks_the_players_words_and_money(session: Session) -> None:
    start_reveal(session)
    session.wait(8.0)
    view = session.video.frame.view
    session.key("f10")
    words = open_tab(session, "recall")
    assert f"Result: {view.result_text}" in words
    assert not [w for w in words if re.fullmatch(r"Result:? [PHDS]\d?", w)]
    assert any(w.startswith("Stake $") for w in words) and any(w.startswith("Won $") for w in words)
    older = next(b for b in session.video.scene.buttons(session.video.frame) if b.action == "older")
    assert older.lamp == "off"  # game 1 of 1: there is no older game


@pytest.mark.parametrize("where", ["handpay", "ticket"])
def test_a_win_past_the_credit_limit_goes_where_configured(config, tmp_path: Path, where: str) -> None:
    s = Session(config.model_copy(update={"credit_limit_win": where}), tmp_path / "nvram", seed=7,
                game_ids=GAME)
    try:
        s.key("f10")
        assert s.cabinet.handle(ChangeSetting("credit_limit_cents", 10000)).accepted
        s.key("f10")
        credit(s)  # exactly the limit
        for _ in range(20):
            before = s.cabinet.credits_cents
            start_reveal(s)
            win = s.cabinet.last_outcome["win_cents"]
            if before - s.cabinet.last_outcome["stake_cents"] + win > 10000:
                # the reveal runs first, on its table, with the meters as they were before the hand
                assert s.video.scene.name == "dragon-poker" and s.video.overlay is None
                after_stake = before - s.cabinet.last_outcome["stake_cents"]
                assert s.video.meters_shown(s.video.frame) == (after_stake, 0)
                break
            s.wait(8.0)
        else:
            raise AssertionError("no win passed the limit in 20 hands")
        s.wait(8.0)
        if where == "handpay":
            assert s.cabinet.state == "handpay"
            assert s.cabinet.memory.get("handpay")["amount_cents"] == win
            assert s.cabinet.credits_cents <= 10000
            why = next(e["message"] for e in s.cabinet.event_log(20) if e["kind"] == "hand_pay")
            assert why.endswith("locks up for a hand pay: it would pass the credit limit."), why
        else:
            s.wait(5.0)
            assert s.cabinet.credits_cents == 0  # the whole credit left on a ticket
            assert s.video._printed()[-1].amount_cents > 10000
    finally:
        s.close()
