"""The server's database: SQLAlchemy 2 Core on SQLite (one process) or PostgreSQL (N instances)."""

from egm.server.db.engine import Database, open_database

__all__ = ["Database", "open_database"]
