"""The player's server-rendered pages (Jinja2): the lobby, log in and register, the account (the demo
cashier and the transactions), limits and breaks, and the history with each round's replay.

Pages only read: every change (a deposit, a limit, a decision) is a request to the JSON API, made by the
page's script (static/pages.js, static/shell.js) with the API's own guards, so the rules live in one
place. The fragments htmx swaps in (transactions, limits, a page of history) come from the same
functions the API answers with, rendered in the player's words."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from sqlalchemy import select

from egm.games import descriptor_of
from egm.money import format_cents, format_denomination
from egm.server.api import player as player_api
from egm.server.api import rg as rg_api
from egm.server.api import wallet as wallet_api
from egm.server.api.deps import caller, server_of
from egm.server.api.models import RowId
from egm.server.db.schema import round_step
from egm.server.errors import ApiError
from egm.server.sessions import Caller, caller_of
from egm.server.settings import SESSION_COOKIE
from egm.server.wallet import TX_PAGE

WEB = Path(__file__).parent
STATIC = "/static/web"
ART = WEB / "static" / "art"  # each game's lobby art, <game id>.png (tools/web_art.py draws them)
PERIODS = {"day": "24 hours", "week": "7 days", "month": "30 days"}
KINDS = {"deposit": "Deposit", "withdraw": "Withdrawal", "stake": "Stake", "win": "Win", "refund": "Refund",
         "adjust": "Adjustment"}
templates = Jinja2Templates(directory=WEB / "templates")
router = APIRouter()


def caller_or_none(request: Request) -> Caller | None:
    """The logged-in player of a page, or None (a page then offers log in and register)."""
    server = server_of(request)
    try:
        db, _, _ = server.require_ready()
        return caller_of(db, request.cookies.get(SESSION_COOKIE), server.settings)
    except ApiError:
        return None


def at(seconds: int | None) -> str:
    return "" if seconds is None else time.strftime("%Y-%m-%d %H:%M", time.gmtime(seconds))


def page(request: Request, template: str, title: str, who: Caller | None, **values: Any) -> Response:
    """A page with the bar: the player's balance and the session's net position as rendered now (the bar's
    script keeps them and the clock live)."""
    bar: dict[str, Any] = {"player": None, "csrf": None}
    if who is not None:
        snap = player_api.snapshot(server_of(request), who)
        net = snap["limits"]["reality_check"]["net_cents"]
        bar = {"player": who, "csrf": who.csrf_token, "balance": format_cents(snap["balance_cents"]),
               "net": ("+" if net > 0 else "") + format_cents(net)}
    return templates.TemplateResponse(request, template, {"static_base": STATIC, "title": title, **bar,
                                                          **values})


def login_first(request: Request) -> Response:
    """A page that needs a player sends the browser to log in, and back here afterwards."""
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse(f"/login?next={quote(here, safe='/')}", status_code=303)


def player_page(request: Request, template: str, title: str,
                values: Callable[[Request, Caller], dict[str, Any]]) -> Response:
    """A page of the player's own (its `values` read for them), or log in first when nobody is."""
    who = caller_or_none(request)
    if who is None:
        return login_first(request)
    return page(request, template, title, who, **values(request, who))


def table_module(game_id: str, generic: bool = False) -> str:
    """The address of the game's own table module, or of the generic table when it ships none (or when
    asked for: a studio plays a new game's server side on it before the game's table exists)."""
    folder = descriptor_of(game_id).web_folder()
    if generic or folder is None or not (folder / "table.js").is_file():
        return f"{STATIC}/generic.js"
    return f"/static/games/{game_id}/table.js"


# A path on this server: one leading slash, then no backslash, whitespace or control character (a
# browser reads a backslash as a slash and drops tabs and newlines: "/<backslash>evil.example" leaves).
LOCAL_PATH = re.compile(r"/(?![/\\])[^\\\x00-\x20\x7f]*")


def safe_next(next_: str) -> str:
    """Where to go after logging in: a path on this server only (never another site)."""
    return next_ if LOCAL_PATH.fullmatch(next_) else "/"


@router.get("/", response_class=HTMLResponse)
def lobby_page(request: Request) -> Response:
    _, lobby, _ = server_of(request).require_ready()
    games = [{"id": g["id"], "title": g["title"], "art": f"{STATIC}/art/{g['id']}.png"
              if (ART / f"{g['id']}.png").is_file() else None,
              "bets": ", ".join(map(str, g["bets_credits"])),
              "coins": ", ".join(map(format_denomination, g["denominations_cents"]))}
             for g in lobby.listing()]
    return page(request, "lobby.html", "Games", caller_or_none(request), games=games)


@router.get("/rules/{game_id}", response_class=HTMLResponse)
def rules_page(game_id: str, request: Request) -> Response:
    """The game's rules and pay pages: the cabinet's HELP pages, from the signed pay table it plays (a
    tab splits a pay line into what wins and what it pays)."""
    _, lobby, _ = server_of(request).require_ready()
    if game_id not in lobby.games:
        raise ApiError(404, "unknown_game", f"There is no game '{game_id}' on this server.")
    help_pages = [{"title": p["title"], "lines": [line.split("\t") for line in p["lines"]]}
                  for p in lobby.rules(game_id)]
    return page(request, "rules.html", f"{lobby.games[game_id].title}: rules and pays",
                caller_or_none(request), game_id=game_id, pages=help_pages)


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, next: str = "/") -> Response:  # noqa: A002 (the query's name)
    return page(request, "login.html", "Log in", None, action="login", button="LOG IN", next=safe_next(next))


@router.get("/register", response_class=HTMLResponse)
def register_page(request: Request, next: str = "/") -> Response:  # noqa: A002
    return page(request, "login.html", "Register", None, action="register", button="REGISTER",
                next=safe_next(next))


def transaction_rows(request: Request, who: Caller, before_id: int | None = None) -> dict[str, Any]:
    """A page of the ledger in words, and the id to ask the next (older) page from, if there is one."""
    listed = wallet_api.transactions(request, who, before_id)["transactions"]
    rows = [{"at": at(tx["at"]), "what": KINDS.get(tx["kind"], tx["kind"].title()),
             "amount": format_cents(tx["amount_cents"]), "balance": format_cents(tx["balance_after"])}
            for tx in listed]
    return {"transactions": rows, "more": listed[-1]["id"] if len(listed) == TX_PAGE else None}


@router.get("/account", response_class=HTMLResponse)
def account_page(request: Request) -> Response:
    return player_page(request, "account.html", "Account", transaction_rows)


@router.get("/account/transactions", response_class=HTMLResponse)
def transactions_fragment(request: Request, before_id: RowId | None = None) -> Response:
    """The newest transactions (the whole table), or with `before_id` the next older rows alone."""
    who = caller(request)
    template = "transactions.html" if before_id is None else "transaction_rows.html"
    return templates.TemplateResponse(request, template, transaction_rows(request, who, before_id))


def limit_view(request: Request, who: Caller) -> dict[str, Any]:
    limits = rg_api.show_limits(request, who)
    rows = []
    for kind, name in (("deposit", "Deposits"), ("loss", "Losses")):
        for period in limits["periods"]:
            held = limits[kind][period]
            pending = (held or {}).get("pending")
            rows.append({"name": f"{name} over {PERIODS[period]}",
                         "amount": format_cents(held["amount_cents"]) if held else "none",
                         "used": format_cents(held["used_cents"]) if held else "",
                         "left": format_cents(held["left_cents"]) if held else "",
                         "pending": None if not pending else (
                             "remove it" if pending["amount_cents"] is None
                             else f"raise to {format_cents(pending['amount_cents'])}"),
                         "pending_id": pending and pending["id"],
                         "confirmable": bool(pending and pending["confirmable"]),
                         "confirmable_at": at(pending and pending["confirmable_at"])})
    every = limits["reality_check"]["interval_min"]
    return {"limits": limits, "limit_rows": rows, "period_words": PERIODS,
            "reality": f"every {every} minutes" if every else "off"}


@router.get("/limits", response_class=HTMLResponse)
def limits_page(request: Request) -> Response:
    return player_page(request, "limits.html", "Limits and breaks", limit_view)


@router.get("/limits/panel", response_class=HTMLResponse)
def limits_fragment(request: Request) -> Response:
    who = caller(request)
    return templates.TemplateResponse(request, "limits_panel.html", limit_view(request, who))


def history_rows(request: Request, who: Caller, before: int | None = None) -> dict[str, Any]:
    _, lobby, _ = server_of(request).require_ready()
    rounds = player_api.history(request, who, before)["rounds"]
    rows = [{"round_id": r["round_id"], "number": r["number"], "at": at(r["completed_at"]),
             "title": lobby.games[r["game_id"]].title if r["game_id"] in lobby.games else r["game_id"],
             "stake": format_cents(r["stake_cents"]),
             "win": "hand pay" if r["status"] == "review" else format_cents(r["win_cents"] or 0)}
            for r in rounds]
    more = rows[-1]["number"] if len(rows) == player_api.HISTORY_PAGE else None
    return {"rounds": rows, "more": more}


@router.get("/history", response_class=HTMLResponse)
def history_page(request: Request) -> Response:
    return player_page(request, "history.html", "History", history_rows)


@router.get("/history/rounds", response_class=HTMLResponse)
def history_fragment(request: Request, before: RowId | None = None) -> Response:
    who = caller(request)
    return templates.TemplateResponse(request, "history_rows.html", history_rows(request, who, before))


@router.get("/history/{round_id}", response_class=HTMLResponse)
def replay_page(round_id: str, request: Request) -> Response:
    who = caller_or_none(request)
    if who is None:
        return login_first(request)
    _, lobby, rounds = server_of(request).require_ready()
    replay = rounds.replay(who, round_id)
    title = lobby.games[replay["game_id"]].title
    win = "a hand pay, paid by an operator" if replay["status"] == "review" else format_cents(
        replay["win_cents"] or 0)
    return page(request, "replay.html", f"{title} #{replay['number']}", who, round_id=round_id,
                module=table_module(replay["game_id"]),
                summary=f"Stake {format_cents(replay['stake_cents'])}, win {win}.")


@router.get("/history/{round_id}/steps")
def replay_steps(round_id: str, request: Request) -> dict[str, Any]:
    """A completed round's view after each step, rebuilt from the step's record with the game's own
    restore: what the table showed then, for the replay to draw step by step."""
    who = caller(request)
    db, lobby, rounds = server_of(request).require_ready()
    replay = rounds.replay(who, round_id)  # the owner's, complete (404 / 409 otherwise)
    game = lobby.games[replay["game_id"]]
    with db.read() as conn:
        steps = conn.execute(select(round_step).where(round_step.c.round_id == round_id)
                             .order_by(round_step.c.step_no)).all()
    return {"game_id": replay["game_id"], "stake_cents": replay["stake_cents"],
            "win_cents": replay["win_cents"],
            "denom_cents": replay["wager"]["denom_cents"], "status": replay["status"],
            "steps": [{"step_no": s.step_no, "decision": s.decision,
                       "view": game.restore(s.record).view().to_json()} for s in steps]}
