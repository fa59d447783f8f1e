"""Coin Flip: call heads or tails; a right call pays `pays_units` x bet for a stake of `stake_units`."""
