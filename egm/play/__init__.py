"""Play, shared by the cabinet and the game server: the round engine (`rounds`) and the pool meters."""
