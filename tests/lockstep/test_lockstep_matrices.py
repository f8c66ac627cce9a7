"""Lockstep's matrix products give asyncshader's matrix products' bits (asyncshader.wgsl.
matrices: float64 sums of exact products, rounded once), on random lanes with extreme values."""

import numpy as np
import pytest

import asyncshader as ash
from asyncshader.lockstep import matrices

L = 200
VEC = {2: ash.vec2f, 3: ash.vec3f, 4: ash.vec4f}


def random_lanes(shape, seed):
    rng = np.random.default_rng(seed)
    v = (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 30, shape)).astype(np.float32)
    v.reshape(-1)[:4] = [3e38, -3e38, 0.0, -0.0]
    return v


def matrix_at(m, lane):
    cols, rows = m.shape[:2]
    kind = getattr(ash, f"mat{cols}x{rows}f")
    return kind(*[VEC[rows](*m[c, :, lane]) for c in range(cols)])


@pytest.mark.parametrize("cols,rows", [(2, 2), (3, 2), (2, 4), (3, 3), (4, 4), (4, 3)])
def test_products_match_the_scalar_matrices(cols, rows):
    m = random_lanes((cols, rows, L), 1)
    v = random_lanes((cols, L), 2)
    w = random_lanes((rows, L), 3)
    b = random_lanes((rows, cols, L), 4)
    with np.errstate(all="ignore"):
        mv, vm, mm = (matrices.times_vector(m, v), matrices.vector_times(w, m),
                      matrices.times_matrix(m, b))
        for lane in range(L):
            a = matrix_at(m, lane)
            assert np.array(list(a * VEC[cols](*v[:, lane])), np.float32).tobytes() == \
                mv[:, lane].tobytes()
            assert np.array(list(VEC[rows](*w[:, lane]) * a), np.float32).tobytes() == \
                vm[:, lane].tobytes()
            product = a * matrix_at(b, lane)
            assert np.array([list(c) for c in product._c], np.float32).tobytes() == \
                np.ascontiguousarray(mm[:, :, lane]).tobytes()


def test_a_matrix_is_built_from_columns_or_from_scalars_in_column_order():
    by_columns = matrices.build([np.array([[1.0], [2.0]]), np.array([[3.0], [4.0]])], 2, 2)
    by_scalars = matrices.build([1.0, 2.0, 3.0, 4.0], 2, 2)
    assert by_columns.tobytes() == by_scalars.tobytes()
    assert by_scalars[:, :, 0].tolist() == [[1.0, 2.0], [3.0, 4.0]]
