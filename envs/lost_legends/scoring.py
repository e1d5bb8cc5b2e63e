"""Lost Legends rules, level end and final scoring (docs 2.10-2.12, 7): legend markers for challenge
trophies, refresh, the next starting player; final scores, winners, potentials and returns.

A mixin of :class:`envs.lost_legends.state.LostLegendsState`: the methods use its attributes.
"""

from __future__ import annotations

from envs.core.game import Outcome
from envs.lost_legends.common import (
    END_REASONS,
    NO,
    OVER,
    gold_bonus,
    xp_points,
)
from envs.lost_legends.content import (
    LEGEND_PER_TROPHY,
    NUM_LEVELS,
    NUM_SLOTS,
)


class ScoringMixin:
    """Level end and scores."""

    # -- level end (2.10, 2.11) ---------------------------------------------------------------------
    def _t_level_end(self) -> None:
        n, lv = self.n, self.level
        for t in range(4):
            if self.challenge[t] != NO:
                self.legend[self.challenge[t]] += LEGEND_PER_TROPHY[lv]
        for i in range(n):
            self.exhausted[i] = [False] * NUM_SLOTS
            self.life[i], self.mana[i] = self.max_life(i), self.max_mana(i)
            self.defeated[i] = False
            if self.front[i] != NO:
                self.box.append(self.front[i])
                self.front[i], self.markers[i] = NO, 0
            self.seen[i] = []
        if self.faceup != NO:
            self.box.append(self.faceup)
            self.faceup = NO
        self.box.extend(self.piles[lv])
        self.piles[lv] = []
        self.atk = self.ev = None
        self.level_ends += 1
        self.turn_seat = NO
        self.trigger = NO
        # New starting player: fewest legend markers; ties to the closest clockwise, himself last.
        former = self.start
        self.start = min(range(n), key=lambda i: (self.legend[i], (i - former) % n or n))
        if lv + 1 < NUM_LEVELS:
            self.level = lv + 1
            self._push(["level_start"])
        else:
            self.phase = OVER

    # -- scores and rewards -------------------------------------------------------------------------
    def score_breakdown(self) -> list[dict[str, int]]:
        bonus = gold_bonus(self.gold)
        return [
            {
                "legend_markers": self.legend[i],
                "experience_points": xp_points(self.xp[i]),
                "trophy_tokens": sum(self.tokens[i]),
                "gold_bonus": bonus[i],
            }
            for i in range(self.n)
        ]

    def scores(self) -> list[float]:
        return [float(sum(b.values())) for b in self.score_breakdown()]

    def winners(self) -> list[int]:
        sc = self.scores()
        best = max(sc)
        return [i for i in range(self.n) if sc[i] == best]

    def potentials(self) -> list[float]:
        sc = self.scores()
        total = sum(sc)
        scale = self.game.options["shaped_scale"]
        return [(sc[i] - (total - sc[i]) / (self.n - 1)) / scale for i in range(self.n)]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_truncated(self) -> bool:
        return self.truncated and self.phase != OVER

    def outcome(self) -> Outcome | None:
        if self.phase == OVER:
            return Outcome(tuple(self.winners()), END_REASONS[0])
        if self.truncated:
            return Outcome((), END_REASONS[1], truncated=True)
        return None

    def rewards(self) -> list[float]:
        return self._rewards

    def returns(self) -> list[float]:
        n = self.n
        if self.phase != OVER:
            return [0.0] * n
        scheme = self.game.options["reward_scheme"]
        sc = self.scores()
        won = set(self.winners())
        win_loss = [1.0 if i in won else -1.0 for i in range(n)]
        if scheme == "win_loss":
            return win_loss
        if scheme == "shaped":
            w = self.game.options["shaped_terminal_weight"]
            return [w * x for x in win_loss]
        if scheme == "score_margin":
            return [
                float(min(1.0, max(-1.0, (sc[i] - max(sc[j] for j in range(n) if j != i)) / 20.0))) for i in range(n)
            ]
        # rank: (n-1-2(rank-1))/(n-1), tied players share the mean of their ranks.
        out = []
        for i in range(n):
            better = sum(sc[j] > sc[i] for j in range(n))
            tied = sum(sc[j] == sc[i] for j in range(n))
            rank = better + (tied + 1) / 2
            out.append((n - 1 - 2 * (rank - 1)) / (n - 1))
        return out
