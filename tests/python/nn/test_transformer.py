"""wick.nn.MultiheadAttention, TransformerEncoderLayer and TransformerEncoder against torch.nn 1.13: the same
parameter names and shapes, then the same outputs, attention weights and gradients from the same weights, with
boolean, float and key-padding masks. torch runs its reference (non fast-path) code: modules in training mode with
dropout 0, or with gradients enabled."""
import numpy as np
import pytest
import torch

import wick

DTYPES = [(wick.float32, torch.float32, 1e-5), (wick.float64, torch.float64, 1e-12)]


def to_wick(t):
    return None if t is None else wick.from_numpy(t.detach().numpy().copy())


def close(w, t, tol):
    if t is None:
        assert w is None
        return
    assert tuple(w.shape) == tuple(t.shape)
    np.testing.assert_allclose(w.detach().numpy(), t.detach().numpy(), rtol=tol, atol=tol)


def copy_weights(t, w):
    assert [(n, tuple(p.shape)) for n, p in w.named_parameters()] == \
           [(n, tuple(p.shape)) for n, p in t.named_parameters()]
    w.load_state_dict({k: to_wick(v) for k, v in t.state_dict().items()})


def pair_attention(*args, tdtype=torch.float64, wdtype=wick.float64, **kwargs):
    t = torch.nn.MultiheadAttention(*args, **kwargs).to(tdtype)
    w = wick.nn.MultiheadAttention(*args, **kwargs).to(wdtype)
    copy_weights(t, w)
    return t, w


def masks(batch, tgt, src, heads, dtype):
    """Boolean and float attention masks and key padding masks, none masking a whole row."""
    gen = torch.Generator().manual_seed(5)
    bool_mask = torch.rand(tgt, src, generator=gen) > 0.6
    bool_mask[:, 0] = False
    float_mask = torch.randn(batch * heads, tgt, src, generator=gen, dtype=dtype)
    padding = torch.zeros(batch, src, dtype=torch.bool)
    padding[0, -2:] = True
    return [(None, None), (bool_mask, None), (float_mask, None), (None, padding), (bool_mask, padding),
            (float_mask, padding), (bool_mask.unsqueeze(0).expand(batch * heads, -1, -1), padding)]


@pytest.mark.parametrize("wdtype,tdtype,tol", DTYPES)
@pytest.mark.parametrize("batch_first", [False, True])
def test_attention_matches_torch_with_masks(wdtype, tdtype, tol, batch_first):
    torch.manual_seed(0)
    t, w = pair_attention(8, 2, tdtype=tdtype, wdtype=wdtype, batch_first=batch_first)
    q = torch.randn(3, 4, 8, dtype=tdtype)
    kv = torch.randn(3, 6, 8, dtype=tdtype) if batch_first else torch.randn(6, 3, 8, dtype=tdtype)
    if not batch_first:
        q = q.transpose(0, 1)
    for attn_mask, padding in masks(3, 4, 6, 2, tdtype):
        for average in (True, False):
            kwargs = {"average_attn_weights": average}
            tr = t(q, kv, kv, key_padding_mask=padding, attn_mask=attn_mask, **kwargs)
            wr = w(to_wick(q), to_wick(kv), to_wick(kv), key_padding_mask=to_wick(padding),
                   attn_mask=to_wick(attn_mask), **kwargs)
            close(wr[0], tr[0], tol)
            close(wr[1], tr[1], tol)


def test_attention_unbatched_kdim_vdim_no_bias_and_no_weights():
    torch.manual_seed(1)
    t, w = pair_attention(6, 3, bias=False, kdim=4, vdim=5)
    assert w.in_proj_weight is None and w.in_proj_bias is None and w.out_proj.bias is None
    q, k, v = torch.randn(2, 6, dtype=torch.float64), torch.randn(5, 4, dtype=torch.float64), \
        torch.randn(5, 5, dtype=torch.float64)
    padding = torch.tensor([False, False, True, False, True])
    for need_weights in (True, False):
        tr = t(q, k, v, key_padding_mask=padding, need_weights=need_weights)
        wr = w(to_wick(q), to_wick(k), to_wick(v), key_padding_mask=to_wick(padding), need_weights=need_weights)
        close(wr[0], tr[0], 1e-12)
        close(wr[1], tr[1], 1e-12)


def test_attention_gradients_match_torch():
    torch.manual_seed(2)
    t, w = pair_attention(8, 4)
    x = torch.randn(5, 2, 8, dtype=torch.float64, requires_grad=True)
    wx = to_wick(x).requires_grad_()
    mask = torch.triu(torch.ones(5, 5, dtype=torch.bool), 1)
    out, weights = t(x, x, x, attn_mask=mask)
    (out.pow(2).sum() + weights.pow(2).sum()).backward()
    out, weights = w(wx, wx, wx, attn_mask=to_wick(mask))
    (out.pow(2).sum() + weights.pow(2).sum()).backward()
    close(wx.grad, x.grad, 1e-10)
    wparams = dict(w.named_parameters())
    for n, p in t.named_parameters():
        close(wparams[n].grad, p.grad, 1e-10)


def test_attention_initialisation_and_errors():
    w = wick.nn.MultiheadAttention(8, 2)
    assert list(w.state_dict()) == ["in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"]
    assert not w.in_proj_bias.detach().numpy().any() and not w.out_proj.bias.detach().numpy().any()
    bound = (6 / (8 + 24)) ** 0.5  # xavier_uniform_ of the (24, 8) in_proj_weight
    assert 0 < np.abs(w.in_proj_weight.detach().numpy()).max() <= bound
    for lib in (wick, torch):
        m = lib.nn.MultiheadAttention(8, 2)
        x = lib.zeros(4, 2, 8)
        with pytest.raises(AssertionError):
            lib.nn.MultiheadAttention(8, 3)
        with pytest.raises(RuntimeError):
            m(x, x, x, attn_mask=lib.zeros(4, 5, dtype=lib.bool))
        with pytest.raises(RuntimeError):
            m(x, x, x, attn_mask=lib.zeros(3, 4, 4, dtype=lib.bool))
        with pytest.raises(AssertionError):
            m(x, x, x, key_padding_mask=lib.zeros(2, 5, dtype=lib.bool))
        with pytest.raises(AssertionError):
            m(x, x, x, attn_mask=lib.zeros(4, 4, dtype=lib.int64))
        with pytest.raises(AssertionError):
            m(x, x[0], x[0])
    with pytest.raises(NotImplementedError):
        wick.nn.MultiheadAttention(8, 2, add_bias_kv=True)


def pair_layer(*args, tdtype=torch.float64, wdtype=wick.float64, **kwargs):
    t = torch.nn.TransformerEncoderLayer(*args, **kwargs).to(tdtype)
    w = wick.nn.TransformerEncoderLayer(*args, **kwargs).to(wdtype)
    copy_weights(t, w)
    return t, w


@pytest.mark.parametrize("wdtype,tdtype,tol", DTYPES)
@pytest.mark.parametrize("config", [{}, {"batch_first": True, "norm_first": True, "activation": "gelu"},
                                    {"activation": "relu", "layer_norm_eps": 1e-3}])
def test_encoder_layer_matches_torch(wdtype, tdtype, tol, config):
    torch.manual_seed(3)
    t, w = pair_layer(8, 2, dim_feedforward=16, dropout=0.0, tdtype=tdtype, wdtype=wdtype, **config)
    x = torch.randn(3, 5, 8, dtype=tdtype)  # (batch 3, sequence 5) if batch_first, else (sequence 3, batch 5)
    batch, length = (3, 5) if config.get("batch_first") else (5, 3)
    mask = torch.triu(torch.full((length, length), float("-inf"), dtype=tdtype), 1)
    padding = torch.zeros(batch, length, dtype=torch.bool)
    padding[1, -2:] = True
    close(w(to_wick(x), to_wick(mask), to_wick(padding)), t(x, mask, padding), tol)


def test_encoder_with_callable_activation_norm_and_gradients():
    torch.manual_seed(4)
    layer_t = torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation=torch.tanh).double()
    layer_w = wick.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation=wick.tanh).double()
    t = torch.nn.TransformerEncoder(layer_t, 2, norm=torch.nn.LayerNorm(8).double())
    w = wick.nn.TransformerEncoder(layer_w, 2, norm=wick.nn.LayerNorm(8).double())
    for p in t.parameters():  # the two copied layers differ only through this
        with torch.no_grad():
            p.add_(torch.randn_like(p) * 0.1)
    copy_weights(t, w)
    x = torch.randn(4, 2, 8, dtype=torch.float64, requires_grad=True)
    wx = to_wick(x).requires_grad_()
    mask = torch.triu(torch.ones(4, 4, dtype=torch.bool), 1)
    out_t, out_w = t(x, mask), w(wx, to_wick(mask))
    close(out_w, out_t, 1e-12)
    out_t.pow(2).sum().backward()
    out_w.pow(2).sum().backward()
    close(wx.grad, x.grad, 1e-10)
    wparams = dict(w.named_parameters())
    for n, p in t.named_parameters():
        close(wparams[n].grad, p.grad, 1e-10)


def test_encoder_layer_dropout_and_errors():
    wick.manual_seed(0)
    layer = wick.nn.TransformerEncoderLayer(8, 2, 16)
    x = wick.randn(4, 2, 8)
    assert not wick.equal(layer(x), layer(x))  # dropout 0.1 while training
    layer.eval()
    assert wick.equal(layer(x), layer(x))
    for lib in (wick, torch):
        with pytest.raises(RuntimeError):
            lib.nn.TransformerEncoderLayer(8, 2, activation="tanh")
        with pytest.raises(AssertionError):
            lib.nn.TransformerEncoderLayer(8, 2)(lib.zeros(4, 2, 8), src_key_padding_mask=lib.zeros(2, 4).long())


@pytest.mark.parametrize("wdtype,tdtype,tol", DTYPES)
@pytest.mark.parametrize("config", [{}, {"batch_first": True, "norm_first": True, "activation": "gelu"}])
def test_decoder_layer_and_decoder_match_torch(wdtype, tdtype, tol, config):
    torch.manual_seed(6)
    layer_t = torch.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, **config).to(tdtype)
    layer_w = wick.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, **config).to(wdtype)
    copy_weights(layer_t, layer_w)
    t = torch.nn.TransformerDecoder(layer_t, 2, norm=torch.nn.LayerNorm(8).to(tdtype))
    w = wick.nn.TransformerDecoder(layer_w, 2, norm=wick.nn.LayerNorm(8).to(wdtype))
    batch_first = config.get("batch_first", False)
    tgt = torch.randn(2, 4, 8, dtype=tdtype) if batch_first else torch.randn(4, 2, 8, dtype=tdtype)
    memory = torch.randn(2, 6, 8, dtype=tdtype) if batch_first else torch.randn(6, 2, 8, dtype=tdtype)
    tgt_mask = torch.nn.Transformer.generate_square_subsequent_mask(4).to(tdtype)
    memory_mask = torch.rand(4, 6) > 0.7
    memory_mask[:, 0] = False
    tgt_padding = torch.tensor([[False, False, False, True], [False] * 4])
    memory_padding = torch.tensor([[False] * 6, [False] * 4 + [True] * 2])
    args = (tgt, memory, tgt_mask, memory_mask, tgt_padding, memory_padding)
    for tm, wm in ((layer_t, layer_w), (t, w)):
        close(wm(*map(to_wick, args)), tm(*args), tol)


def test_transformer_matches_torch_with_gradients():
    torch.manual_seed(7)
    t = torch.nn.Transformer(8, 2, 2, 1, 16, dropout=0.0, batch_first=True).double()
    w = wick.nn.Transformer(8, 2, 2, 1, 16, dropout=0.0, batch_first=True).double()
    copy_weights(t, w)
    src = torch.randn(2, 5, 8, dtype=torch.float64, requires_grad=True)
    tgt = torch.randn(2, 3, 8, dtype=torch.float64)
    wsrc = to_wick(src).requires_grad_()
    tgt_mask = torch.nn.Transformer.generate_square_subsequent_mask(3)
    wmask = wick.nn.Transformer.generate_square_subsequent_mask(3)
    close(wmask, tgt_mask, 0)
    padding = torch.tensor([[False] * 5, [False] * 3 + [True] * 2])
    out_t = t(src, tgt, tgt_mask=tgt_mask.double(), src_key_padding_mask=padding, memory_key_padding_mask=padding)
    out_w = w(wsrc, to_wick(tgt), tgt_mask=wmask.double(), src_key_padding_mask=to_wick(padding),
              memory_key_padding_mask=to_wick(padding))
    close(out_w, out_t, 1e-12)
    out_t.pow(2).sum().backward()
    out_w.pow(2).sum().backward()
    close(wsrc.grad, src.grad, 1e-10)
    wparams = dict(w.named_parameters())
    for n, p in t.named_parameters():
        close(wparams[n].grad, p.grad, 1e-10)


def test_transformer_initialisation_and_errors():
    w = wick.nn.Transformer(8, 2, 1, 1, 16)
    for name, p in w.named_parameters():
        values = np.abs(p.detach().numpy())
        if p.dim() > 1:  # xavier_uniform_
            assert 0 < values.max() <= (6 / sum(p.shape)) ** 0.5, name
    for lib in (wick, torch):
        m = lib.nn.Transformer(8, 2, 1, 1, 16)
        with pytest.raises(RuntimeError, match="batch number"):
            m(lib.zeros(5, 2, 8), lib.zeros(3, 3, 8))
        with pytest.raises(RuntimeError, match="feature number"):
            m(lib.zeros(5, 2, 8), lib.zeros(3, 2, 6))


def test_encoder_layer_unbatched_with_float_padding_mask():
    torch.manual_seed(8)
    t, w = pair_layer(8, 2, 16, dropout=0.0)
    x = torch.randn(5, 8, dtype=torch.float64)
    close(w(to_wick(x)), t(x), 1e-12)
    padding = torch.tensor([0.0, 0.0, -1.0, float("-inf"), 0.5], dtype=torch.float64)  # added to the scores
    close(w(to_wick(x), src_key_padding_mask=to_wick(padding)), t(x, src_key_padding_mask=padding), 1e-12)
