"""CUDA: clean errors without a device; with one, kernels agree with the CPU."""
import pytest

import wick


def test_availability_is_reported():
    assert isinstance(wick.cuda.is_available(), bool)
    assert wick.cuda.device_count() >= 0
    assert wick._C._has_cuda in (0, 1)


@pytest.mark.skipif(wick.cuda.is_available(), reason="a CUDA device is present")
def test_cuda_calls_raise_a_clear_error():
    x = wick.ones(3)
    with pytest.raises(RuntimeError, match="CUDA is not available"):
        x.cuda()
    with pytest.raises(RuntimeError, match="CUDA is not available"):
        x.to("cuda:0")
    with pytest.raises(RuntimeError, match="CUDA is not available"):
        wick.zeros(2, device="cuda")


@pytest.mark.cuda
@pytest.mark.parametrize("dtype", [wick.float32, wick.float64, wick.int32, wick.float16, wick.bool, wick.uint8])
def test_fill_add_and_copies_agree_with_cpu(dtype):
    host = wick.arange(12).reshape(3, 4).to(dtype)
    dev = host.cuda()
    assert dev.device == wick.device("cuda:0") and dev.is_cuda
    assert dev.cpu().tolist() == host.tolist()
    assert dev.t().cpu().tolist() == host.t().tolist()
    assert wick.add(dev, dev).cpu().tolist() == wick.add(host, host).tolist()
    assert (dev + 1).cpu().tolist() == (host + 1).tolist()
    assert wick.zeros(2, 3, device="cuda", dtype=dtype).fill_(1).cpu().tolist() == wick.ones(2, 3, dtype=dtype).tolist()
    moved = wick.empty(3, 4, dtype=wick.float64).cuda()
    moved.copy_(dev)
    assert moved.cpu().tolist() == host.to(wick.float64).tolist()
