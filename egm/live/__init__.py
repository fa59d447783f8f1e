"""The live-table scoreboard (seed 004, Fig. 5): its roads and board (pure), and the dealer's and the
display's pages (web/). The game server serves them (egm.server.live_table, egm.server.api.live)."""
