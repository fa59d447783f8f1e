"""The HTTP API, /api/v1: one router per concern (auth, wallet, rounds, player)."""
