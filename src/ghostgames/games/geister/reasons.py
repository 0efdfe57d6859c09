"""Why a game of Geister ends and why a move is refused, as codes (see rules/reasons.py). The compiled
core (fast.py) keeps an ending as its index in ENDINGS."""

from ghostgames.rules.reasons import ending, refusal

REACHED = ending("reached", "a good ghost reached an exit")
LEFT_BOARD = ending("escaped", "a good ghost escaped")
GOOD_CAPTURED = ending("good_captured", "captured all four good ghosts")
BAD_CAPTURED = ending("bad_captured", "captured all four bad ghosts")
PLY_LIMIT = ending("ply_limit", "the {max_plies}-move limit was reached")
ENDINGS = (REACHED, LEFT_BOARD, GOOD_CAPTURED, BAD_CAPTURED, PLY_LIMIT)

NO_GHOST = refusal("geister.no_ghost", "you have no ghost on {square}")
OWN_GHOST = refusal("geister.own_ghost", "{square} holds your own ghost")
SETUP_FIRST = refusal("geister.setup_first", "first place your ghosts: 'setup' and the 4 squares of your good ghosts")
SETUP_OVER = refusal("geister.setup_over", "the setup is over; move a ghost instead, e.g. 'b2 n'")
NOT_START = refusal("geister.not_start", "{squares}: not your start squares")  # words made in state.py
NO_ESCAPE = refusal("geister.no_escape", "ghosts cannot leave the board under the 'reach' exit rule")
ESCAPE_FROM_EXIT = refusal("geister.escape_from_exit",
                           "a ghost can only leave the board from one of your exits, off its edge")
ESCAPE_GOOD_ONLY = refusal("geister.escape_good_only", "only a good ghost may leave by an exit")
