"""The game server (seed 004, Fig. 2 and [0021]): every installed game played remotely over HTTP, with
player accounts, an idempotent wallet, and SQLite (one process) or PostgreSQL (N instances).

The database is the wager memory: a step is shown only after its transaction committed. Players see a
round's view, never its record, until the round is complete. See docs/server.md.
"""
