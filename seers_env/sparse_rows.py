"""Compiled first layer of a network on sparse feature rows: ``max(shift + rows @ weights, 0)``.

The play rows of :func:`seers_env.features.encode_plays` are about 13% nonzero (about 14 of
:data:`~seers_env.features.PLAY_DIM` columns a row) and a state of :func:`~seers_env.features.encode_state`
about 11%, so the first layer of a network on them does a fraction of a dense product's work when it
adds the weight rows of the nonzero features only (a sparse-times-dense product, as scipy.sparse's
``csr_matrix @ ndarray`` does, without building the sparse matrix). :func:`sparse_affine_relu` does that
and the bias and ReLU in one pass per row, in float32, one thread (numba, ``cache=True``). The sum runs
over the columns in order with fused multiply-adds, so results equal a dense float32 product up to
rounding.
``train.scoring_policy.NumpyPlayScorer`` uses it for the state encoder's and the play scorer's first
layers.
"""

from __future__ import annotations

import numpy as np

from .engine.jit import njit


@njit(cache=True, fastmath={"contract"})
def sparse_affine_relu(rows, n_cols, weights, shift, out):
    """``out[r] = max(shift + sum_k rows[r, k] * weights[k], 0)`` over the first ``n_cols`` columns.

    Args:
        rows: float32 ``(R, C)``, ``C >= n_cols`` (later columns are ignored); any strides.
        n_cols: the columns used; ``weights`` has one row per column.
        weights: float32 ``(n_cols, H)``, C-contiguous.
        shift: float32 ``(H,)``, the bias (and any per-decision term) added to every row.
        out: float32 ``(R, H)``, C-contiguous, written (only an index and one row are allocated).

    Each row's nonzero columns are listed first, then their weight rows are added with fused
    multiply-adds (``fastmath={"contract"}``, nothing else relaxed), so the cost is that of the nonzero
    entries. A NaN in a used entry, weight row or ``shift`` gives NaN, as the dense layer would; the
    weight rows of zero entries are not read, so a NaN or infinity there is not seen (as in
    ``scipy.sparse``). :func:`affine_relu` checks its arguments first.

    Raises:
        ValueError: the shapes do not fit (checked before anything is written).
    """
    n_rows = rows.shape[0]
    width = weights.shape[1]
    if (n_cols < 0 or rows.shape[1] < n_cols or weights.shape[0] < n_cols or shift.shape[0] != width
            or out.shape[0] != n_rows or out.shape[1] != width):
        raise ValueError("sparse_affine_relu: shapes do not fit: need rows (R, >= n_cols), weights "
                         "(>= n_cols, H), shift (H,) and out (R, H)")
    nonzero = np.empty(n_cols, np.int64)
    acc = np.empty(width, np.float32)  # local: the compiler knows it aliases neither weights nor out
    for r in range(n_rows):
        m = 0
        for k in range(n_cols):
            if rows[r, k] != 0.0:
                nonzero[m] = k
                m += 1
        for j in range(width):
            acc[j] = shift[j]
        for q in range(m):
            k = nonzero[q]
            x = rows[r, k]
            for j in range(width):
                acc[j] += x * weights[k, j]
        for j in range(width):
            v = acc[j]
            out[r, j] = np.float32(0.0) if v <= 0.0 else v  # NaN stays NaN, as torch.relu and np.maximum


def affine_relu(rows: np.ndarray, weights: np.ndarray, shift: np.ndarray) -> np.ndarray:
    """:func:`sparse_affine_relu` into a new array: float32 ``(R, H)`` from ``rows`` float32 ``(R, C)``
    (its first ``len(weights)`` columns), ``weights`` float32 ``(K, H)`` and ``shift`` float32 ``(H,)``.

    Raises:
        TypeError: an argument is not a float32 numpy array (the message names it and its type or dtype).
        ValueError: ``weights`` is not a C-contiguous 2-D array, ``rows`` is not 2-D with at least ``K``
            columns, or ``shift`` is not ``(H,)`` (the message names the bad shape).
    """
    for name, a in (("rows", rows), ("weights", weights), ("shift", shift)):
        if not isinstance(a, np.ndarray):
            raise TypeError(f"{name} must be a float32 numpy array, got {type(a).__name__}")
        if a.dtype != np.float32:
            raise TypeError(f"{name} must be a float32 numpy array, got dtype {a.dtype}")
    if weights.ndim != 2:
        raise ValueError(f"weights must be a 2-D array, got shape {weights.shape}")
    if not weights.flags.c_contiguous:
        raise ValueError(f"weights (shape {weights.shape}) must be C-contiguous; pass "
                         f"np.ascontiguousarray(weights)")
    if rows.ndim != 2 or rows.shape[1] < weights.shape[0]:
        raise ValueError(f"rows has shape {rows.shape}, expected (R, >= {weights.shape[0]})")
    if shift.shape != (weights.shape[1],):
        raise ValueError(f"shift has shape {shift.shape}, expected ({weights.shape[1]},)")
    out = np.empty((rows.shape[0], weights.shape[1]), np.float32)
    sparse_affine_relu(rows, weights.shape[0], weights, np.ascontiguousarray(shift), out)
    return out


__all__ = ["affine_relu", "sparse_affine_relu"]
