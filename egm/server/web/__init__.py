"""The player's browser client (seed 004's phones, laptops and desktops): server-rendered pages
(Jinja2), the shell that runs a round (static/shell.js), and the generic table. Each game's own table
is an ES module in its package (`GameDescriptor.web`), served at /static/games/<game id>/; see docs/web.md.
"""
