"""Kickstarting: PPO with a distillation term towards a teacher on the learner's own positions.

Cloning (training/pretrain.py) fits the policy to the teacher once, before PPO; from then on PPO's
noisy advantage estimates are free to pull it away from the teacher in positions where the reward
says little, and in a long cooperative game they mostly do. Kickstarting (Schmitt et al., 2018,
"Kickstarting Deep Reinforcement Learning") keeps the teacher in the loop: the training envs ask
the teacher for its move at every decision the learner meets (``SingleAgentEnv(teacher=...)``
puts it in ``info["teacher_action"]``), and after each PPO update the policy takes a pass over the
rollout minimising ``coef * cross-entropy(masked policy, teacher move)``. The coefficient decays
linearly to 0 over ``decay_steps`` (0: it stays), so the learner can end up better than its
teacher rather than a copy of it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from training.pretrain import masked_logits

NO_LABEL = -1  # a decision without the teacher's move (the env sent none): left out of the loss


class KickstartedPPO(MaskablePPO):
    """MaskablePPO plus a distillation pass per update; set :meth:`configure_kickstart` before
    ``learn``. Saved models load as a plain MaskablePPO too (the policy is unchanged)."""

    kickstart_coef: float = 0.0
    kickstart_decay_steps: int = 0
    kickstart_start: int = 0

    def configure_kickstart(self, coef: float, decay_steps: int) -> None:
        """The decay counts from now (``num_timesteps`` at this call), so a resumed run decays anew."""
        self.kickstart_coef, self.kickstart_decay_steps = float(coef), int(decay_steps)
        self.kickstart_start = int(self.num_timesteps)

    def current_kickstart_coef(self) -> float:
        if self.kickstart_decay_steps <= 0:
            return self.kickstart_coef
        done = (self.num_timesteps - self.kickstart_start) / self.kickstart_decay_steps
        return self.kickstart_coef * max(0.0, 1.0 - done)

    # -- the teacher's labels, in step with the rollout buffer ---------------------------------
    def _setup_learn(self, *args, **kwargs):
        before = self._last_obs
        result = super()._setup_learn(*args, **kwargs)
        if self._last_obs is not before or not hasattr(self, "_teacher_next"):  # the envs were reset
            self._teacher_next = self._labels(self.env.unwrapped.reset_infos)
        self._teacher_actions = np.full((self.n_steps, self.n_envs), NO_LABEL, np.int64)
        return result

    def _excluded_save_params(self) -> list[str]:
        return [*super()._excluded_save_params(), "_teacher_actions", "_teacher_next"]

    @staticmethod
    def _labels(infos) -> np.ndarray:
        return np.array([info.get("teacher_action", NO_LABEL) for info in infos], np.int64)

    def _update_info_buffer(self, infos: list[dict[str, Any]], dones: np.ndarray | None = None) -> None:
        # Called by collect_rollouts after env.step and before rollout_buffer.add(self._last_obs, ...):
        # the label of the observation just acted on goes where that step is about to be stored.
        super()._update_info_buffer(infos, dones)
        self._teacher_actions[self.rollout_buffer.pos] = self._teacher_next
        nxt = self._labels(infos)
        if dones is not None and np.any(dones):
            restarted = self._labels(self.env.unwrapped.reset_infos)  # the next episode's first decision
            nxt = np.where(dones, restarted, nxt)
        self._teacher_next = nxt

    # -- the update ----------------------------------------------------------------------------
    def train(self) -> None:
        super().train()
        coef = self.current_kickstart_coef()
        self.logger.record("train/kickstart_coef", coef)
        if coef <= 0:
            return
        buffer = self.rollout_buffer  # flattened (step-major per env) by get() in super().train()
        labels = self._teacher_actions.swapaxes(0, 1).reshape(-1)
        keep = np.flatnonzero(labels != NO_LABEL)
        if len(keep) == 0:
            return
        obs = torch.as_tensor(buffer.observations.reshape(len(labels), -1)[keep])
        masks = torch.as_tensor(buffer.action_masks.reshape(len(labels), -1)[keep] > 0.5)
        target = torch.as_tensor(labels[keep])
        order = np.random.default_rng(self.num_timesteps).permutation(len(keep))
        losses, agreed = [], 0
        self.policy.set_training_mode(True)
        for start in range(0, len(order), self.batch_size):
            idx = torch.as_tensor(order[start : start + self.batch_size])
            logits = masked_logits(self.policy, obs[idx], masks[idx])
            loss = torch.nn.functional.cross_entropy(logits, target[idx])
            self.policy.optimizer.zero_grad()
            (coef * loss).backward()
            torch.nn.utils.clip_grad_norm_(self.policy.parameters(), self.max_grad_norm)
            self.policy.optimizer.step()
            losses.append(loss.item())
            agreed += int((logits.argmax(1) == target[idx]).sum())
        self.logger.record("train/kickstart_loss", float(np.mean(losses)))
        self.logger.record("train/kickstart_agreement", agreed / len(keep))
