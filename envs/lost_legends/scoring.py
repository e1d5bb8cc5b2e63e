"""Lost Legends rules, level end and final scoring (docs 2.10-2.12, 7): legend markers for challenge
trophies, refresh, the next starting player; the score breakdown and the final rewards by scheme.

Plain functions of a :class:`~envs.lost_legends.state.LostLegendsState`: :func:`level_end` is a task
registered in :data:`~envs.lost_legends.common.TASKS`; the state's ``scores()``, ``winners()`` and
``returns()`` are read from :func:`score_breakdown` and :func:`final_returns`.
"""

from __future__ import annotations

from envs.core.tasks import push
from envs.lost_legends.common import NO, OVER, TASKS, gold_bonus, xp_points
from envs.lost_legends.content import LEGEND_PER_TROPHY, NUM_LEVELS, NUM_SLOTS


# -- level end (2.10, 2.11) -------------------------------------------------------------------------
@TASKS.task
def level_end(s) -> None:
    n, lv = s.n, s.level
    for t in range(4):
        if s.challenge[t] != NO:
            s.legend[s.challenge[t]] += LEGEND_PER_TROPHY[lv]
    for i in range(n):
        s.exhausted[i] = [False] * NUM_SLOTS
        s.life[i], s.mana[i] = s.max_life(i), s.max_mana(i)
        s.board_edits[i] += 1  # and the legend markers above
        s.defeated[i] = False
        if s.front[i] != NO:
            s.box.append(s.front[i])
            s.front[i], s.markers[i] = NO, 0
        s.seen[i] = []
    if s.faceup != NO:
        s.box.append(s.faceup)
        s.faceup = NO
    s.box.extend(s.piles[lv])
    s.piles[lv] = []
    s.atk = s.ev = None
    s.level_ends += 1
    s.turn_seat = NO
    s.trigger = NO
    # New starting player: fewest legend markers; ties to the closest clockwise, himself last.
    former = s.start
    s.start = min(range(n), key=lambda i: (s.legend[i], (i - former) % n or n))
    if lv + 1 < NUM_LEVELS:
        s.level = lv + 1
        push(s.tasks, ["level_start"])
    else:
        s.phase = OVER


# -- scores (2.12, 7) -------------------------------------------------------------------------------
def score_breakdown(s) -> list[dict[str, int]]:
    """Per seat, the four parts of the final score as they stand now."""
    bonus = gold_bonus(s.gold)
    return [
        {
            "legend_markers": s.legend[i],
            "experience_points": xp_points(s.xp[i]),
            "trophy_tokens": sum(s.tokens[i]),
            "gold_bonus": bonus[i],
        }
        for i in range(s.n)
    ]


def final_returns(s, scheme: str) -> list[float]:
    """The reward of every seat at the end under ``scheme`` (the ``reward_scheme`` option)."""
    n = s.n
    sc = s.scores()
    won = set(s.winners())
    win_loss = [1.0 if i in won else -1.0 for i in range(n)]
    if scheme == "win_loss":
        return win_loss
    if scheme == "shaped":
        w = s.game.options["shaped_terminal_weight"]
        return [w * x for x in win_loss]
    if scheme == "score_margin":
        return [float(min(1.0, max(-1.0, (sc[i] - max(sc[j] for j in range(n) if j != i)) / 20.0))) for i in range(n)]
    # rank: (n-1-2(rank-1))/(n-1), tied players share the mean of their ranks.
    out = []
    for i in range(n):
        better = sum(sc[j] > sc[i] for j in range(n))
        tied = sum(sc[j] == sc[i] for j in range(n))
        rank = better + (tied + 1) / 2
        out.append((n - 1 - 2 * (rank - 1)) / (n - 1))
    return out
