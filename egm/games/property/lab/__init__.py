"""Property in the lab (not firmware: outside the program ROM): the adapter `egm certify` runs
(`adapter`) and the exact check of the movement rules (`markov`)."""

from egm.games.property.lab.adapter import PropertyLab

__all__ = ["PropertyLab"]
