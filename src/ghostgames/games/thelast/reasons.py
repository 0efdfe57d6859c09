"""Why a match of The Last ends and why an action is refused, as codes (see rules/reasons.py)."""

from ghostgames.rules.reasons import ending, refusal

LOWEST_PENALTY = ending("lowest_penalty", "lowest penalty: {penalty}")
ALL_TIED = ending("all_tied", "all tied on {penalty}")

PLAY_NOW = refusal("thelast.play_now", "play a card into the trick, e.g. {example}")
DECIDE_FIRST = refusal("thelast.decide_first",
                       "first decide about the points card {card}: 'keep' or 'swap' and a card from your hand")
NO_CARD = refusal("thelast.no_card", "you have no {card}")
NO_CARD_TO_SWAP = refusal("thelast.no_card_to_swap", "you have no {card} to lay face down")
MUST_FOLLOW = refusal("thelast.must_follow", "you must play a colour of {colours} while holding one")
LAST_MUST_FOLLOW = refusal("thelast.last_must_follow",
                           "the last player must play a colour of {colours} while holding one")
