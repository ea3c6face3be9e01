"""wick.set_num_threads / wick.get_num_threads: PyTorch's names, checks and behaviour."""
import numpy as np
import pytest

import wick


@pytest.fixture
def restore_threads():
    before = wick.get_num_threads()
    yield
    wick.set_num_threads(before)


def test_set_then_get(restore_threads):
    for n in (1, 3, 2):
        wick.set_num_threads(n)
        assert wick.get_num_threads() == n


def test_results_do_not_depend_on_the_thread_count(restore_threads):
    x = np.random.default_rng(0).standard_normal(1 << 20).astype(np.float32)
    results = []
    for n in (1, 2, 4):
        wick.set_num_threads(n)
        t = wick.from_numpy(x)
        results.append((t.sum().item(), (t * 2 + 1).numpy().copy(), t.reshape(1024, 1024).sum(0).numpy().copy()))
    for total, pointwise, columns in results[1:]:
        assert total == results[0][0]
        np.testing.assert_array_equal(pointwise, results[0][1])
        np.testing.assert_array_equal(columns, results[0][2])
    np.testing.assert_allclose(results[0][0], x.astype(np.float64).sum(), rtol=1e-5)


def test_matrix_products_follow_it(restore_threads):
    a = np.random.default_rng(1).standard_normal((200, 300))
    wick.set_num_threads(1)
    np.testing.assert_allclose(wick.from_numpy(a).mm(wick.from_numpy(a.T)).numpy(), a @ a.T, rtol=1e-12, atol=1e-12)


class Index:
    def __index__(self):
        return 2


def test_takes_anything_with_index(restore_threads):
    wick.set_num_threads(Index())
    assert wick.get_num_threads() == 2


@pytest.mark.parametrize("bad", [0, -1, 1025, 2 ** 70, -(2 ** 70)])
def test_refuses_counts_out_of_range(bad, restore_threads):
    before = wick.get_num_threads()
    with pytest.raises(RuntimeError, match="set_num_threads expects a positive integer"):
        wick.set_num_threads(bad)
    assert wick.get_num_threads() == before


@pytest.mark.parametrize("bad", [1.0, "2", None, [2]])
def test_refuses_what_is_not_an_int(bad):
    with pytest.raises(TypeError):
        wick.set_num_threads(bad)
