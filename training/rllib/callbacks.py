"""RLlib callbacks of herozoo runs: win rates from the game's outcome.

The env puts ``{"herozoo": {...}}`` (``State.outcome()``: seat, table size, winners, won) into
every agent's final info; these become ``herozoo/*`` metrics of the env runners (windows of 200
episodes), reported under ``result["env_runners"]``. Episode returns are not used: RLlib drops the
final reward of an agent that never acted, and a shared policy's mean return in a zero-sum game is 0.
"""

from __future__ import annotations

from ray.rllib.callbacks.callbacks import RLlibCallback

WINDOW = 200


class HerozooCallbacks(RLlibCallback):
    """``learner_win_rate`` (pool mode), ``team_win_rate`` (cooperative), ``seat0_win_rate``
    (competitive, shared policy), each also per table size (``..._3p``), and ``episode_len``."""

    def on_episode_end(self, *, episode, metrics_logger=None, **kwargs) -> None:
        if metrics_logger is None:
            return
        results = {
            agent: info["herozoo"]
            for agent, info in episode.get_infos(indices=-1).items()
            if isinstance(info, dict) and "herozoo" in info
        }
        if not results:
            return
        first = next(iter(results.values()))
        n = first["num_players"]
        log = metrics_logger.log_value
        log("herozoo/episode_len", episode.env_steps(), reduce="mean", window=WINDOW)
        if "learner" in results:  # pool mode: main's seat
            won = float(results["learner"]["won"])
            log("herozoo/learner_win_rate", won, reduce="mean", window=WINDOW)
            log(f"herozoo/learner_win_rate_{n}p", won, reduce="mean", window=WINDOW)
        elif first["cooperative"]:
            won = float(bool(first["winners"]))
            log("herozoo/team_win_rate", won, reduce="mean", window=WINDOW)
            log(f"herozoo/team_win_rate_{n}p", won, reduce="mean", window=WINDOW)
        else:  # competitive, shared policy: how often the first seat wins (seat bias)
            log("herozoo/seat0_win_rate", float(0 in first["winners"]), reduce="mean", window=WINDOW)


__all__ = ["HerozooCallbacks"]
