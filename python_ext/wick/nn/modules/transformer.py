"""wick.nn.modules.transformer: MultiheadAttention and the Transformer's layers, stacks and whole model, composed
of wick ops as PyTorch 1.13's (its slow path: same parameters, masks and results)."""
import copy
import math
import warnings

import wick
from wick.nn import functional as F
from wick.nn import init
from wick.nn.modules.container import ModuleList
from wick.nn.modules.dropout import Dropout
from wick.nn.modules.linear import Linear
from wick.nn.modules.module import Module
from wick.nn.modules.normalization import LayerNorm
from wick.nn.parameter import Parameter

__all__ = ["MultiheadAttention", "TransformerEncoderLayer", "TransformerEncoder", "TransformerDecoderLayer",
           "TransformerDecoder", "Transformer"]


def _as_bool_mask(mask, name):
    """A uint8 mask turned to bool with PyTorch's warning; other masks must be bool or floating."""
    if mask is None:
        return None
    if mask.dtype == wick.uint8:
        warnings.warn(f"Byte tensor for {name} in nn.MultiheadAttention is deprecated. Use bool tensor instead.")
        return mask.to(wick.bool)
    if mask.dtype != wick.bool and not mask.is_floating_point():
        raise AssertionError(f"Only float, byte, and bool types are supported for {name}, not {mask.dtype}")
    return mask


class MultiheadAttention(Module):
    """MultiheadAttention(embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
    kdim=None, vdim=None, batch_first=False, device=None, dtype=None)

    softmax(Q Kᵀ / sqrt(head_dim) + mask) V in each of num_heads heads, the heads' results concatenated and
    projected by out_proj. Q, K, V are the projections of query, key and value by in_proj_weight (3 * embed_dim,
    embed_dim) and in_proj_bias, or by q_proj_weight, k_proj_weight, v_proj_weight when kdim or vdim differ from
    embed_dim. add_bias_kv and add_zero_attn raise NotImplementedError.
    """

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, device=None, dtype=None):
        super().__init__()
        if add_bias_kv or add_zero_attn:
            raise NotImplementedError("wick's MultiheadAttention does not support add_bias_kv or add_zero_attn")
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        factory = {"device": device, "dtype": dtype}
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(wick.empty((3 * embed_dim, embed_dim), **factory))
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
        else:
            self.register_parameter("in_proj_weight", None)
            self.q_proj_weight = Parameter(wick.empty((embed_dim, embed_dim), **factory))
            self.k_proj_weight = Parameter(wick.empty((embed_dim, self.kdim), **factory))
            self.v_proj_weight = Parameter(wick.empty((embed_dim, self.vdim), **factory))
        if bias:
            self.in_proj_bias = Parameter(wick.empty(3 * embed_dim, **factory))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = Linear(embed_dim, embed_dim, bias=bias, **factory)
        self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            for weight in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight):
                init.xavier_uniform_(weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)

    def _project(self, query, key, value):
        """Q, K and V: query, key and value through their slices of the input projection."""
        if self._qkv_same_embed_dim:
            weights = self.in_proj_weight.chunk(3)
        else:
            weights = (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight)
        biases = (None,) * 3 if self.in_proj_bias is None else self.in_proj_bias.chunk(3)
        return tuple(F.linear(x, w, b) for x, w, b in zip((query, key, value), weights, biases))

    def _heads(self, x, batch):
        """(length, batch, embed_dim) -> (batch * num_heads, length, head_dim)."""
        return x.reshape(x.shape[0], batch * self.num_heads, self.head_dim).transpose(0, 1)

    def _merged_mask(self, attn_mask, key_padding_mask, batch, tgt_len, src_len, dtype):
        """attn_mask and key_padding_mask as one additive float mask broadcastable to (batch * num_heads,
        tgt_len, src_len), or None: True (masked) positions become -inf."""
        attn_mask = _as_bool_mask(attn_mask, "attn_mask")
        key_padding_mask = _as_bool_mask(key_padding_mask, "key_padding_mask")
        if attn_mask is not None:
            if attn_mask.dim() == 2:
                if tuple(attn_mask.shape) != (tgt_len, src_len):
                    raise RuntimeError(f"The shape of the 2D attn_mask is {tuple(attn_mask.shape)}, but should be "
                                       f"{(tgt_len, src_len)}.")
                attn_mask = attn_mask.unsqueeze(0)
            elif attn_mask.dim() == 3:
                expected = (batch * self.num_heads, tgt_len, src_len)
                if tuple(attn_mask.shape) != expected:
                    raise RuntimeError(f"The shape of the 3D attn_mask is {tuple(attn_mask.shape)}, but should be "
                                       f"{expected}.")
            else:
                raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")
        if key_padding_mask is not None:
            if tuple(key_padding_mask.shape) != (batch, src_len):
                raise AssertionError(f"expecting key_padding_mask shape of {(batch, src_len)}, but got "
                                     f"{tuple(key_padding_mask.shape)}")
            key_padding_mask = key_padding_mask.reshape(batch, 1, 1, src_len).expand(
                -1, self.num_heads, -1, -1).reshape(batch * self.num_heads, 1, src_len)
            if attn_mask is None:
                attn_mask = key_padding_mask
            elif attn_mask.dtype == wick.bool:
                attn_mask = attn_mask.logical_or(key_padding_mask)
            else:
                attn_mask = attn_mask.masked_fill(key_padding_mask, float("-inf"))
        if attn_mask is not None and attn_mask.dtype == wick.bool:
            attn_mask = wick.zeros_like(attn_mask, dtype=dtype).masked_fill_(attn_mask, float("-inf"))
        return attn_mask

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True):
        """forward(query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
        average_attn_weights=True) -> (attn_output, attn_weights or None)

        query (L, N, E), key (S, N, kdim), value (S, N, vdim) (batch first if batch_first), or unbatched (L, E),
        (S, kdim), (S, vdim). attn_mask (L, S) or (N * num_heads, L, S) and key_padding_mask (N, S): True or -inf
        masks a position out, other floats are added to the scores. attn_weights are (N, L, S) averaged over the
        heads, or (N, num_heads, L, S).
        """
        batched = query.dim() == 3
        if batched:
            if key.dim() != 3 or value.dim() != 3:
                raise AssertionError("For batched (3-D) `query`, expected `key` and `value` to be 3-D but found "
                                     f"{key.dim()}-D and {value.dim()}-D tensors respectively")
            if self.batch_first:
                query, key, value = (x.transpose(0, 1) for x in (query, key, value))
        elif query.dim() == 2:
            if key.dim() != 2 or value.dim() != 2:
                raise AssertionError("For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found "
                                     f"{key.dim()}-D and {value.dim()}-D tensors respectively")
            query, key, value = (x.unsqueeze(1) for x in (query, key, value))
            if key_padding_mask is not None:
                key_padding_mask = key_padding_mask.unsqueeze(0)
        else:
            raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D "
                                 "query tensor")
        tgt_len, batch, embed_dim = query.shape
        src_len = key.shape[0]
        if embed_dim != self.embed_dim:
            raise AssertionError(f"was expecting embedding dimension of {self.embed_dim}, but got {embed_dim}")
        if key.shape[:2] != value.shape[:2] or key.shape[1] != batch:
            raise AssertionError(f"key shape {tuple(key.shape)} does not match value shape {tuple(value.shape)}")
        q, k, v = self._project(query, key, value)
        mask = self._merged_mask(attn_mask, key_padding_mask, batch, tgt_len, src_len, q.dtype)
        q, k, v = (self._heads(x, batch) for x in (q, k, v))
        q = q / math.sqrt(self.head_dim)
        scores = wick.bmm(q, k.transpose(-2, -1)) if mask is None else wick.baddbmm(mask, q, k.transpose(-2, -1))
        weights = F.softmax(scores, dim=-1)
        if self.training and self.dropout > 0.0:
            weights = F.dropout(weights, p=self.dropout)
        output = wick.bmm(weights, v).transpose(0, 1).reshape(tgt_len * batch, embed_dim)
        output = self.out_proj(output).reshape(tgt_len, batch, embed_dim)
        if need_weights:
            weights = weights.reshape(batch, self.num_heads, tgt_len, src_len)
            if average_attn_weights:
                weights = weights.mean(dim=1)
        else:
            weights = None
        if not batched:
            return output.squeeze(1), None if weights is None else weights.squeeze(0)
        return (output.transpose(0, 1) if self.batch_first else output), weights


def _activation(activation):
    """The callable behind TransformerEncoderLayer's `activation`: 'relu', 'gelu', or a callable as is."""
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    if callable(activation):
        return activation
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


class _Layer(Module):
    """What the encoder and decoder layers share: their blocks, each ending in a dropout, whose result is added
    to the block's input (its residual)."""

    def _check_padding(self, key_padding_mask):
        if (key_padding_mask is not None and key_padding_mask.dtype != wick.bool
                and not key_padding_mask.is_floating_point()):
            raise AssertionError("only bool and floating types of key_padding_mask are supported")

    def _attention_block(self, attention, x, memory, attn_mask, key_padding_mask, dropout):
        x = attention(x, memory, memory, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                      need_weights=False)[0]
        return dropout(x)

    def _ff_block(self, x, dropout):
        return dropout(self.linear2(self.dropout(self.activation(self.linear1(x)))))


class TransformerEncoderLayer(_Layer):
    """TransformerEncoderLayer(d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu,
    layer_norm_eps=1e-05, batch_first=False, norm_first=False, device=None, dtype=None)

    Self-attention then a feed-forward block (linear1, activation, linear2), each added to its input: after
    normalising it (norm_first) or normalising the sum (the default).
    """

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, device=None, dtype=None):
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, **factory)
        self.linear1 = Linear(d_model, dim_feedforward, **factory)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, **factory)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, **factory)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, **factory)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.activation = _activation(activation)

    def forward(self, src, src_mask=None, src_key_padding_mask=None):
        """forward(src, src_mask=None, src_key_padding_mask=None) -> Tensor, shaped as src."""
        self._check_padding(src_key_padding_mask)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask)
            return x + self._ff_block(self.norm2(x), self.dropout2)
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask))
        return self.norm2(x + self._ff_block(x, self.dropout2))

    def _sa_block(self, x, attn_mask, key_padding_mask):
        return self._attention_block(self.self_attn, x, x, attn_mask, key_padding_mask, self.dropout1)


class TransformerDecoderLayer(_Layer):
    """TransformerDecoderLayer(d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu,
    layer_norm_eps=1e-05, batch_first=False, norm_first=False, device=None, dtype=None)

    Self-attention over the target, attention from the target to the encoder's output (memory), then a
    feed-forward block, each added to its input as in TransformerEncoderLayer.
    """

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, device=None, dtype=None):
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, **factory)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                                 **factory)
        self.linear1 = Linear(d_model, dim_feedforward, **factory)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, **factory)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, **factory)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, **factory)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, **factory)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)
        self.activation = _activation(activation)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None):
        """forward(tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
        memory_key_padding_mask=None) -> Tensor, shaped as tgt."""
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask)
            return x + self._ff_block(self.norm3(x), self.dropout3)
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask))
        x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask))
        return self.norm3(x + self._ff_block(x, self.dropout3))

    def _sa_block(self, x, attn_mask, key_padding_mask):
        return self._attention_block(self.self_attn, x, x, attn_mask, key_padding_mask, self.dropout1)

    def _mha_block(self, x, memory, attn_mask, key_padding_mask):
        return self._attention_block(self.multihead_attn, x, memory, attn_mask, key_padding_mask, self.dropout2)


class TransformerEncoder(Module):
    """TransformerEncoder(encoder_layer, num_layers, norm=None, enable_nested_tensor=True, mask_check=True)

    num_layers deep copies of encoder_layer applied in turn, then `norm` if given. enable_nested_tensor and
    mask_check only choose PyTorch's fast paths, which wick does not have.
    """

    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True, mask_check=True):
        super().__init__()
        self.layers = ModuleList([copy.deepcopy(encoder_layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check

    def forward(self, src, mask=None, src_key_padding_mask=None):
        """forward(src, mask=None, src_key_padding_mask=None) -> Tensor, shaped as src."""
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=mask, src_key_padding_mask=src_key_padding_mask)
        return output if self.norm is None else self.norm(output)


class TransformerDecoder(Module):
    """TransformerDecoder(decoder_layer, num_layers, norm=None)

    num_layers deep copies of decoder_layer applied in turn to the target, each reading the same memory, then
    `norm` if given.
    """

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = ModuleList([copy.deepcopy(decoder_layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None):
        """forward(tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
        memory_key_padding_mask=None) -> Tensor, shaped as tgt."""
        output = tgt
        for layer in self.layers:
            output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                           tgt_key_padding_mask=tgt_key_padding_mask,
                           memory_key_padding_mask=memory_key_padding_mask)
        return output if self.norm is None else self.norm(output)


class Transformer(Module):
    """Transformer(d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
    dropout=0.1, activation=F.relu, custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-05,
    batch_first=False, norm_first=False, device=None, dtype=None)

    An encoder (a TransformerEncoder with a final LayerNorm, or custom_encoder) whose output is the memory of a
    decoder (likewise); every parameter of more than one dimension is drawn by xavier_uniform_.
    """

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
                 dropout=0.1, activation=F.relu, custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, device=None, dtype=None):
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        layer_args = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            self.encoder = TransformerEncoder(TransformerEncoderLayer(*layer_args, **factory), num_encoder_layers,
                                              LayerNorm(d_model, eps=layer_norm_eps, **factory))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            self.decoder = TransformerDecoder(TransformerDecoderLayer(*layer_args, **factory), num_decoder_layers,
                                              LayerNorm(d_model, eps=layer_norm_eps, **factory))
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first
        for p in self.parameters():
            if p.dim() > 1:
                init.xavier_uniform_(p)

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
                tgt_key_padding_mask=None, memory_key_padding_mask=None):
        """forward(src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
        tgt_key_padding_mask=None, memory_key_padding_mask=None) -> Tensor, shaped as tgt."""
        batch_dim = 0 if self.batch_first else 1
        if src.dim() == 3 and src.shape[batch_dim] != tgt.shape[batch_dim]:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask)

    @staticmethod
    def generate_square_subsequent_mask(sz, device="cpu"):
        """generate_square_subsequent_mask(sz, device='cpu') -> Tensor: the (sz, sz) float mask with -inf above
        the diagonal, so that position i attends to positions up to i only."""
        return wick.triu(wick.full((sz, sz), float("-inf"), device=device), diagonal=1)
