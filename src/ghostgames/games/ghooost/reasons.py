"""Why a round or match of Ghooost! ends and why an action is refused, as codes (see rules/reasons.py)."""

from ghostgames.rules.reasons import ending, refusal

ROUND_LOSER = ending("round_loser", "seat {seat} is the last holding cards")
TURN_LIMIT = ending("turn_limit", "the round reached {turns} turns")
MATCH_WON = ending("match_won", "seat {seat} wins the match with {points} points")
ROUND_LIMIT = ending("round_limit", "the match reached {rounds} rounds")

NOT_HELD = refusal("ghooost.not_held", "you do not hold {cards}")
AFTER_THREE = refusal("ghooost.after_three", "after a 3 only a 1, a 3, a 12, Kitty or a quartet may be played")
AFTER_TWELVE = refusal("ghooost.after_twelve", "after a 12 only a 1, another 12, Kitty or a quartet may be played")
BELOW_TOP = refusal("ghooost.below_top",
                    "{value} is below the top value {top}: play {top} or more, a 1, Kitty or a quartet")
CEMETERY_EMPTY = refusal("ghooost.cemetery_empty", "the cemetery is empty: there is nothing to take")
NO_GAMBLE = refusal("ghooost.no_gamble", "it is midnight: the crypt is empty, so there is no gamble any more")
TURN_AFTER_MIDNIGHT = refusal("ghooost.turn_after_midnight",
                              "mansion cards are turned only after midnight (the crypt is not empty yet)")
TURN_EMPTY_HAND = refusal("ghooost.turn_empty_hand", "you may turn your mansion card only when your hand is empty")
NEVER_DONE = refusal("ghooost.never_done",
                     "with the option replay 'must' every extra turn has to be played: 'done' is never allowed")
DONE_EXTRA_ONLY = refusal("ghooost.done_extra_only",
                          "'done' ends only the extra turn a double or triple gives; after a quartet or a jack you "
                          "must play again, and any other turn ends by itself after your action")
PASS_LAST = refusal("ghooost.pass_last", "you may pass only when nothing else is allowed")
