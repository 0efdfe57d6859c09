"""Learning: the training, fitting and data sets that produce the models the bots ship.

This package imports bots and games; nothing under bots/ imports it, so playing never pulls training in.
The weights it writes ship beside the bot that loads them (e.g. bots/geister/value-weights.npz), and each
is produced by a `ghostgames train ...` command (commands/train.py).
"""
