"""One compiled call per opponent decision: a checkpoint's MLP for one seat's next observation.

Inside a training env, a checkpoint opponent's numpy forward pass costs about 60 µs of CPU per
decision (Last Heroes, [256, 256] tanh, 1036 inputs), and little of it is arithmetic: it is the
two dozen numpy calls of a forward pass and a masked draw, each paying its dispatch with caches
that the rules engine's own work has just cooled. :func:`seat_step` does the whole decision in one
numba-compiled call:

1. the first layer's pre-activation ``W x + b`` is updated from the observation entries that
   changed since the seat's previous observation (an "efficiently updatable" first layer, as in
   NNUE chess evaluators): successive observations of one seat differ in few entries (a median of
   23 of 1036 in 4-player Last Heroes), while the first layer holds most of the weights. It is
   accumulated in float64 and rebuilt from the observation's nonzero entries when that touches
   fewer rows than the update would, or when the caller asks (every so many updates);
2. the other layers, with tanh as Eigen's float32 rational approximation (within 3e-7 of the exact
   value) or relu;
3. the masked argmax, or the masked softmax draw of :func:`training.runtime.inference._draw` (float32
   exponentials of the logits minus their max, summed in action order, the first legal action
   whose running sum exceeds ``u`` times the total).

The result is the policy's choice up to float32 rounding of the logits. ``numba`` is a dependency;
where it cannot be imported :data:`AVAILABLE` is False and seat actors fall back to the policy's
numpy ``act``.
"""

from __future__ import annotations

import numpy as np

try:
    from numba import njit
except ImportError:  # pragma: no cover - numba is a dependency; this keeps a broken install usable
    AVAILABLE = False
else:
    AVAILABLE = True

# Eigen's generic_fast_tanh_float: tanh(x) ~ x p(x^2) / q(x^2) on [-7.9, 7.9], +-1 beyond.
_TANH_CLAMP = 7.90531110763549805
_TANH_P = (
    -2.76076847742355e-16,
    2.00018790482477e-13,
    -8.60467152213735e-11,
    5.12229709037114e-08,
    1.48572235717979e-05,
    6.37261928875436e-04,
    4.89352455891786e-03,
)
_TANH_Q = (1.19825839466702e-06, 1.18534705686654e-04, 2.26843463243900e-03, 4.89352518554385e-03)


def _seat_step(x, prev, pre, changed, ws, bs, relu, mask, u, deterministic, rebuild, buf_a, buf_b, logits):
    """The action for observation ``x`` (float32[n_in]); see the module docstring.

    ``prev`` (float32[n_in]) and ``pre`` (float64[h1]) are the seat's last observation and its first
    pre-activation, both updated here; ``changed`` is int64[n_in] scratch. ``ws`` / ``bs`` are the
    layers' ``W^T`` [in, out] and biases, the first hidden layer first and the action head last.
    ``mask`` (bool or int8[n_actions]) allows at least one action. Returns (action, rows): the rows
    of the first layer's matrix that were read, minus one when the pre-activation was rebuilt.
    """
    n_in = x.shape[0]
    w1 = ws[0]
    h1 = w1.shape[1]
    k = 0
    nonzero = 0
    for i in range(n_in):
        xi = x[i]
        if xi != prev[i]:
            changed[k] = i
            k += 1
        if xi != 0.0:
            nonzero += 1
    if rebuild or nonzero < k:
        b1 = bs[0]
        for j in range(h1):
            pre[j] = b1[j]
        for i in range(n_in):
            xi = x[i]
            prev[i] = xi
            if xi != 0.0:
                xd = np.float64(xi)
                for j in range(h1):
                    pre[j] += xd * w1[i, j]
        rows = -1 - nonzero
    else:
        for t in range(k):
            i = changed[t]
            d = np.float64(x[i]) - np.float64(prev[i])
            prev[i] = x[i]
            for j in range(h1):
                pre[j] += d * w1[i, j]
        rows = k
    last = len(ws) - 1
    h = logits if last == 0 else buf_a[:h1]  # no hidden layer: the first layer is the action head
    for j in range(h1):
        h[j] = pre[j]
    for layer in range(last + 1):
        if layer > 0:
            w = ws[layer]
            b = bs[layer]
            n_out = w.shape[1]
            out = logits if layer == last else (buf_b[:n_out] if layer % 2 else buf_a[:n_out])
            for j in range(n_out):
                out[j] = b[j]
            for i in range(w.shape[0]):
                hi = h[i]
                for j in range(n_out):
                    out[j] += hi * w[i, j]
            h = out
        if layer < last:
            if relu:
                for j in range(h.shape[0]):
                    if h[j] < 0.0:
                        h[j] = 0.0
            else:
                for j in range(h.shape[0]):
                    v = min(max(h[j], np.float32(-_TANH_CLAMP)), np.float32(_TANH_CLAMP))
                    v2 = v * v
                    p = np.float32(_TANH_P[0])
                    p = p * v2 + np.float32(_TANH_P[1])
                    p = p * v2 + np.float32(_TANH_P[2])
                    p = p * v2 + np.float32(_TANH_P[3])
                    p = p * v2 + np.float32(_TANH_P[4])
                    p = p * v2 + np.float32(_TANH_P[5])
                    p = p * v2 + np.float32(_TANH_P[6])
                    q = np.float32(_TANH_Q[0])
                    q = q * v2 + np.float32(_TANH_Q[1])
                    q = q * v2 + np.float32(_TANH_Q[2])
                    q = q * v2 + np.float32(_TANH_Q[3])
                    h[j] = v * p / q
    best = -1
    top = np.float32(-np.inf)
    for j in range(logits.shape[0]):
        if mask[j] and (best < 0 or logits[j] > top):
            top = logits[j]
            best = j
    if deterministic:
        return best, rows
    total = np.float32(0.0)
    for j in range(logits.shape[0]):
        if mask[j]:
            total += np.exp(logits[j] - top)
    target = np.float32(u * total)
    running = np.float32(0.0)
    chosen = best
    for j in range(logits.shape[0]):
        if mask[j]:
            running += np.exp(logits[j] - top)
            chosen = j
            if running > target:
                break
    return chosen, rows


if AVAILABLE:
    # fastmath off: float32 sums stay IEEE (no reassociation), so rounding is all that differs
    # from the numpy forward pass. cache=True keeps the compiled code beside this file.
    seat_step = njit(cache=True, nogil=True)(_seat_step)
else:  # pragma: no cover
    seat_step = None


__all__ = ["AVAILABLE", "seat_step"]
