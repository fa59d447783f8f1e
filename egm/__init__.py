"""EGM firmware simulator: the software of a casino gaming cabinet."""

__version__ = "0.1.0"
