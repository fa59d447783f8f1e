"""The link between a cabinet and the game server (issue 30): pygame-free and server-free, so both
sides import it."""
