"""Where the log-in page sends the browser afterwards (`next`): a path on this server only. A browser
reads a backslash as a slash and drops tabs and newlines from a URL, so `/\\evil.example` or
`/\t/evil.example` would leave for another site (an open redirect) if they were passed on."""

from __future__ import annotations

import pytest

from egm.server.web.pages import safe_next
from tests.server_support import Player


@pytest.mark.parametrize("path", ["/", "/play/dragon-poker", "/history?before=12", "/account#cashier"])
def test_a_path_on_this_server_is_kept(path: str) -> None:
    assert safe_next(path) == path


@pytest.mark.parametrize("elsewhere", [
    "//evil.example", "https://evil.example/", "evil.example", "", "/\\evil.example", "\\\\evil.example",
    "/\t/evil.example", "/\n/evil.example", "/\r/evil.example", " //evil.example", "/\\/evil.example",
    "javascript:alert(1)",
])
def test_anything_that_could_leave_the_server_goes_to_the_lobby(elsewhere: str) -> None:
    assert safe_next(elsewhere) == "/"


def test_the_icon_is_linked_by_every_page_and_asked_at_favicon_ico(app) -> None:
    """A browser asks /favicon.ico when a page links no icon, and a bookmark does anyway: both get the
    shell's SVG, never a 404."""
    browser = Player(app).client
    asked = browser.get("/favicon.ico", follow_redirects=False)
    assert asked.status_code == 308 and asked.headers["location"] == "/static/web/favicon.svg"
    icon = browser.get("/static/web/favicon.svg")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.text.lstrip().startswith("<svg")
    lobby = browser.get("/login")
    assert '<link rel="icon" href="/static/web/favicon.svg"' in lobby.text
