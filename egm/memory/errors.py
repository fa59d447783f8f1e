"""The wager memory's errors: what a caller must tell apart."""

from __future__ import annotations


class RamError(Exception):
    """No good copy of wager memory is left: the cabinet tilts until an operator RAM clear."""


class MemoryUnavailable(RamError):
    """The NVRAM location cannot hold a memory (not a directory, a copy that is not a file) or
    another process already writes it. Nothing on disk was touched."""


class MemoryBusy(MemoryUnavailable):
    """Another process (a second cabinet, a second `egm autoplay`) holds the memory's lock."""


class CommitFailed(RamError):
    """Storage failed before the transaction was committed: nothing may be acknowledged."""


class AccountingBreach(Exception):
    """A transaction would break the accounting identity; it was not committed."""
