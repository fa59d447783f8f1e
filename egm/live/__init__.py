"""The live-table scoreboard (seed 004, Fig. 5): roads, and the table service on the game server."""
