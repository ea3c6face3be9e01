"""wick.nn: Parameter; the Module machinery (registration, traversal, modes, zero_grad, state_dict, conversions,
repr); Sequential and ModuleList; each layer and loss against torch.nn 1.13 in float64 from the same weights;
and wick.nn.init. Each program runs the same way with either library and the two results must agree."""
import copy
import math
import pickle
from collections import OrderedDict

import numpy as np
import pytest
import torch

import wick



def errors(*calls):
    """The type name of the exception each call raises (each must raise)."""
    names = []
    for call in calls:
        with pytest.raises(Exception) as info:
            call()
        names.append(info.type.__name__)
    return names

def both(program):
    """What `program(lib)` returns with wick and with torch: the two must agree."""
    return program(wick), program(torch)


def array(t):
    return None if t is None else t.detach().numpy()


def seeded(model, lib, seed=0):
    """`model` in float64 with every parameter drawn from one seeded NumPy generator, so that the same values go
    into either library (through load_state_dict)."""
    model = model.double()
    rng = np.random.default_rng(seed)
    model.load_state_dict({k: lib.from_numpy(rng.standard_normal(tuple(p.shape))) for k, p in model.named_parameters()},
                          strict=False)
    return model


# --- Parameter ---

def test_parameter_is_a_leaf_over_the_memory_of_its_data():
    data = wick.zeros(3, dtype=wick.float64)
    p = wick.nn.Parameter(data)
    assert isinstance(p, wick.Tensor) and type(p) is wick.nn.Parameter
    assert p.requires_grad and p.is_leaf and p.grad_fn is None
    with wick.no_grad():
        p.add_(1)
    assert data.tolist() == [1.0, 1.0, 1.0]  # written through p
    assert not wick.nn.Parameter(data, requires_grad=False).requires_grad
    assert tuple(wick.nn.Parameter().shape) == (0,)


def test_parameter_of_a_non_leaf_drops_its_history():
    x = wick.ones(2, requires_grad=True)
    p = wick.nn.Parameter(x * 2)
    assert p.is_leaf and p.grad_fn is None and p.requires_grad


def test_parameter_behaves_as_a_tensor_in_ops():
    def program(lib):
        p = lib.nn.Parameter(lib.tensor([[1.0, -2.0], [3.0, 0.5]], dtype=lib.float64))
        y = (p.matmul(p) + p.exp()).relu().sum() * 2
        y.backward()
        return type(y).__name__, array(y), array(p.grad), type(p.grad).__name__, type(p[0]).__name__
    (w_kind, *w_values, w_grad_kind, w_view_kind), (t_kind, *t_values, _, _) = both(program)
    assert w_kind == "Tensor" and w_grad_kind == "Tensor" and w_view_kind == "Tensor"
    for w, t in zip(w_values, t_values):
        np.testing.assert_allclose(w, t, rtol=1e-12)


def test_parameter_repr():
    def program(lib):
        return repr(lib.nn.Parameter(lib.tensor([1.0, 2.0]))).replace("torch", "wick")
    wick_repr, torch_repr = both(program)
    assert wick_repr == torch_repr == "Parameter containing:\ntensor([1., 2.], requires_grad=True)"


@pytest.mark.parametrize("duplicate", [copy.deepcopy, lambda p: pickle.loads(pickle.dumps(p))],
                         ids=["deepcopy", "pickle"])
@pytest.mark.parametrize("requires_grad", [True, False])
def test_parameter_copies_keep_class_and_requires_grad(duplicate, requires_grad):
    p = wick.nn.Parameter(wick.tensor([1.0, 2.0]), requires_grad=requires_grad)
    q = duplicate(p)
    assert type(q) is wick.nn.Parameter and q.requires_grad == requires_grad and q.tolist() == [1.0, 2.0]
    with wick.no_grad():
        q.fill_(0)
    assert p.tolist() == [1.0, 2.0]


# --- the Module machinery ---

def net(lib):
    """A model with nested containers, a shared submodule, tied weights, buffers and a parameter set to None."""
    nn = lib.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            shared = nn.Linear(8, 8)
            self.body = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), shared, nn.Tanh())
            self.heads = nn.ModuleList([nn.Linear(8, 3), shared, nn.Linear(8, 3, bias=False)])
            self.heads[2].weight = self.heads[0].weight  # tied
            self.norm = nn.LayerNorm(8)
            self.emb = nn.Embedding(10, 4, padding_idx=0)
            self.scale = nn.Parameter(lib.ones(1))
            self.register_parameter("unused", None)
            self.register_buffer("steps", lib.zeros(1, dtype=lib.int64))
            self.register_buffer("scratch", lib.zeros(2), persistent=False)

        def forward(self, x):
            return self.heads[0](self.norm(self.body(x))) * self.scale
    return Net()


def test_traversal_names_match_torch():
    def program(lib):
        model = net(lib)
        return ([n for n, _ in model.named_parameters()], [n for n, _ in model.named_parameters(recurse=False)],
                [n for n, _ in model.named_buffers()], [n for n, _ in model.named_modules()],
                [n for n, _ in model.named_children()], list(model.state_dict()),
                [n for n, _ in model.named_parameters(prefix="model")],
                len(list(model.parameters())), len(list(model.buffers())), len(list(model.modules())),
                [type(m).__name__ for m in model.children()])
    wick_names, torch_names = both(program)
    assert wick_names == torch_names
    assert "body.0.weight" in wick_names[0] and "heads.2.weight" not in wick_names[0]  # tied: listed once
    everything = [n for n, _ in net(wick).named_parameters(remove_duplicate=False)]  # PyTorch 2's argument
    assert "heads.2.weight" in everything and "heads.1.weight" in everything and len(everything) == 13


def test_repr_matches_torch():
    def program(lib):
        nn = lib.nn
        return repr(nn.Sequential(
            net(lib), nn.Conv1d(2, 4, 3, stride=2, padding=1, bias=False),
            nn.Conv2d(4, 8, (3, 2), dilation=2, groups=2),
            nn.Conv2d(2, 2, 3, padding="same", padding_mode="reflect"), nn.MaxPool2d(3, 2, 1), nn.AvgPool2d(2),
            nn.Flatten(), nn.Dropout(0.25), nn.GELU(approximate="tanh"), nn.SiLU(), nn.Sigmoid(), nn.ReLU(inplace=True),
            nn.Softmax(dim=1), nn.LogSoftmax(-1), nn.LeakyReLU(0.2), nn.ELU(0.5, inplace=True), nn.Softplus(2, 10),
            nn.Hardtanh(-2.0, 2.0), nn.Identity(), nn.LayerNorm((2, 3), elementwise_affine=False),
            nn.Embedding(5, 2), nn.ModuleList(), nn.CrossEntropyLoss(), nn.MSELoss(), nn.Unfold((2, 3), padding=1),
            nn.Fold((4, 5), 2, dilation=2, stride=(1, 2)), nn.Unflatten(1, (2, 3)),
            nn.ModuleDict({"act": nn.ReLU(), "norm": nn.BatchNorm2d(3)}), nn.AdaptiveAvgPool2d((None, 2)),
            nn.AdaptiveMaxPool2d(3, return_indices=True), nn.AdaptiveAvgPool1d(4)))
    wick_repr, torch_repr = both(program)
    assert wick_repr == torch_repr


def test_setattr_registers_and_unregisters():
    def program(lib):
        nn = lib.nn
        m = nn.Module()
        m.p = nn.Parameter(lib.zeros(1))
        m.child = nn.Linear(1, 1)
        m.plain = lib.zeros(1)  # a tensor that is not a Parameter stays a plain attribute
        m.register_buffer("buf", lib.zeros(1))
        m.buf = lib.ones(1)
        seen = [list(m._parameters), list(m._modules), list(m._buffers), "plain" in m.__dict__, m.buf.tolist()]
        m.child = nn.Parameter(lib.zeros(1))  # a module's name taken by a parameter
        m.p = None
        seen += [list(m._parameters), list(m._modules), m.p]
        del m.child
        seen.append(list(m._parameters))
        seen += errors(lambda: setattr(m, "p", lib.zeros(1)), lambda: setattr(m, "buf", 3),
                       lambda: m.register_parameter("x", lib.zeros(1)), lambda: m.register_buffer("plain", None),
                       lambda: m.add_module("a.b", nn.Linear(1, 1)), lambda: m.add_module("z", 3),
                       lambda: m.register_parameter("nonleaf", nn.Parameter(lib.zeros(1)) * 2),
                       lambda: getattr(m, "missing"))
        return seen
    wick_seen, torch_seen = both(program)
    assert wick_seen == torch_seen


def test_assignments_before_init_raise():
    class Early(wick.nn.Module):
        def __init__(self):
            self.w = wick.nn.Parameter(wick.zeros(1))
    with pytest.raises(AttributeError, match="before Module.__init__"):
        Early()


def test_missing_forward_raises():
    with pytest.raises(NotImplementedError, match='missing the required "forward"'):
        wick.nn.Module()(1)


def test_train_eval_and_apply():
    def program(lib):
        model = net(lib)
        seen = [model.training, model.eval() is model, [m.training for m in model.modules()]]
        model.heads.train()
        seen.append([m.training for m in model.modules()])
        order = []
        seen.append(model.train().apply(lambda m: order.append(type(m).__name__)) is model)
        return seen + [order, [m.training for m in model.modules()]]
    wick_seen, torch_seen = both(program)
    assert wick_seen == torch_seen
    with pytest.raises(ValueError, match="boolean"):
        wick.nn.Linear(1, 1).train(1)


@pytest.mark.parametrize("set_to_none", [True, False])
def test_zero_grad(set_to_none):
    def program(lib):
        p = lib.nn.Parameter(lib.tensor([1.0, 2.0]))
        m = lib.nn.Module()
        m.p = p
        (p * p).sum().backward()
        before = array(p.grad).copy()
        m.zero_grad(set_to_none=set_to_none)
        return before, array(p.grad), p.grad is None or p.grad.requires_grad
    (w_before, w_after, w_flag), (t_before, t_after, t_flag) = both(program)
    np.testing.assert_array_equal(w_before, t_before)
    assert (w_after is None) == (t_after is None) == set_to_none and w_flag == t_flag
    if not set_to_none:
        np.testing.assert_array_equal(w_after, [0.0, 0.0])


def test_requires_grad_():
    model = net(wick)
    assert model.requires_grad_(False) is model and not any(p.requires_grad for p in model.parameters())
    model.requires_grad_()
    assert all(p.requires_grad for p in model.parameters())


# --- state_dict ---

def test_state_dict_is_detached_and_shares_memory():
    model = wick.nn.Linear(2, 3)
    state = model.state_dict()
    assert isinstance(state, OrderedDict) and list(state) == ["weight", "bias"]
    assert all(type(t) is wick.Tensor and not t.requires_grad for t in state.values())
    with wick.no_grad():
        state["bias"].fill_(7)
    assert model.bias.tolist() == [7.0, 7.0, 7.0]
    assert model.state_dict(keep_vars=True)["weight"] is model.weight


def test_load_state_dict_round_trip_from_torch():
    torch_model = net(torch).double()
    model = net(wick).double()
    result = model.load_state_dict({k: wick.from_numpy(v.numpy().copy()) for k, v in torch_model.state_dict().items()})
    assert repr(result) == "<All keys matched successfully>" and result.missing_keys == result.unexpected_keys == []
    for (name, value), (torch_name, torch_value) in zip(model.state_dict().items(), torch_model.state_dict().items()):
        assert name == torch_name
        np.testing.assert_array_equal(value.numpy(), torch_value.numpy())
    again = net(wick).double()
    again.load_state_dict(model.state_dict())
    assert all(np.array_equal(a.numpy(), b.numpy()) for a, b in zip(again.state_dict().values(),
                                                                      model.state_dict().values()))


def test_load_state_dict_errors_as_torch():
    def program(lib):
        model = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.Linear(3, 1))
        state = model.state_dict()
        del state["1.bias"]
        state["1.extra"] = lib.zeros(1)
        state["2.weight"] = lib.zeros(1)
        state["0.weight"] = lib.zeros(3, 3)
        with pytest.raises(RuntimeError) as info:
            model.load_state_dict(state)
        loose = model.load_state_dict({"1.extra": lib.zeros(1), "0.bias": lib.ones(3)}, strict=False)
        return (str(info.value).replace("torch.Size(", "").replace("])", "]").replace("[", "(").replace("]", ")"),
                loose.missing_keys, loose.unexpected_keys, repr(loose), model[0].bias.tolist())
    wick_result, torch_result = both(program)
    assert wick_result == torch_result
    assert wick_result[0].startswith('Error(s) in loading state_dict for Sequential:\n\tMissing key(s) in state_dict: '
                                     '"1.bias". \n\tUnexpected key(s) in state_dict: ')


def test_load_state_dict_refuses_non_tensors():
    with pytest.raises(RuntimeError, match='While copying the parameter named "bias"'):
        wick.nn.Linear(1, 1).load_state_dict({"weight": wick.zeros(1, 1), "bias": [0.0]})
    with pytest.raises(TypeError, match="dict-like"):
        wick.nn.Linear(1, 1).load_state_dict([("weight", wick.zeros(1, 1))])


def test_save_and_load_state_dict_with_wick_save(tmp_path):
    model = net(wick)
    wick.save(model.state_dict(), tmp_path / "model.pt")
    other = net(wick)
    other.load_state_dict(wick.load(tmp_path / "model.pt"))
    for a, b in zip(model.state_dict().values(), other.state_dict().values()):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_deepcopy_of_a_module():
    model = net(wick)
    clone = copy.deepcopy(model)
    assert clone.heads[2].weight is clone.heads[0].weight  # still tied, to a new parameter
    assert clone.heads[0].weight is not model.heads[0].weight
    assert all(type(p) is wick.nn.Parameter and p.requires_grad for p in clone.parameters())
    assert list(clone.state_dict()) == list(model.state_dict())


# --- conversions ---

def test_to_dtype_converts_floating_point_tensors_only():
    model = net(wick)
    linear = model.body[0]
    linear.weight.sum().backward()
    assert model.to(wick.float32) is model and model.body[0].weight is linear.weight  # nothing to change
    model.to(wick.float64)
    assert {p.dtype for p in model.parameters()} == {wick.float64}
    assert all(type(p) is wick.nn.Parameter and p.requires_grad for p in model.parameters())
    assert model.steps.dtype == wick.int64 and model.scratch.dtype == wick.float64
    assert model.body[0].weight.grad.dtype == wick.float64
    assert model.heads[2].weight is model.heads[0].weight  # tied weights stay tied
    assert model.float().body[0].weight.dtype == wick.float32
    assert model.to("cpu", wick.float64).body[0].weight.dtype == wick.float64
    assert model.to(wick.zeros(1, dtype=wick.float32)).body[0].weight.dtype == wick.float32
    assert model.half().body[0].weight.dtype == wick.float16
    assert model.cpu().bfloat16().body[0].weight.dtype == wick.bfloat16
    with pytest.raises(TypeError, match="floating point"):
        model.to(wick.int32)


# --- containers ---

def test_sequential_indexing_and_editing():
    def program(lib):
        nn = lib.nn
        seq = nn.Sequential(nn.Linear(1, 2), nn.ReLU(), nn.Linear(2, 3))
        seen = [len(seq), type(seq[-1]).__name__, type(seq[1:]).__name__, [type(m).__name__ for m in seq[::2]],
                [n for n, _ in seq[1:].named_children()]]
        seq.append(nn.Tanh())
        seq[0] = nn.Sigmoid()
        del seq[1]
        seen += [[n for n, _ in seq.named_children()], [type(m).__name__ for m in seq]]
        named = nn.Sequential(OrderedDict([("first", nn.ReLU()), ("second", nn.Tanh())]))
        seen += [list(named._modules), type(named[1]).__name__, repr(named)]
        seen += errors(lambda: seq[10], lambda: seq["0"])
        return seen
    wick_seen, torch_seen = both(program)
    assert wick_seen == torch_seen


def test_module_dict():
    def program(lib):
        nn = lib.nn
        layers = nn.ModuleDict({"linear": nn.Linear(2, 3), "act": nn.ReLU()})
        layers["out"] = nn.Linear(3, 1)
        layers.update([("act", nn.Tanh()), ("norm", nn.LayerNorm(3))])
        layers.update(nn.ModuleDict(OrderedDict([("z", nn.Identity()), ("a", nn.Sigmoid())])))
        seen = [len(layers), list(layers), list(layers.keys()), [type(m).__name__ for m in layers.values()],
                [(k, type(m).__name__) for k, m in layers.items()], "act" in layers, "missing" in layers,
                [n for n, _ in layers.named_parameters()], list(layers.state_dict())]
        popped = layers.pop("linear")
        del layers["z"]
        seen += [type(popped).__name__, list(layers), [n for n, _ in layers.named_children()], repr(layers)]
        seen += errors(lambda: layers["linear"], lambda: layers.update(3), lambda: layers.update([nn.ReLU()]),
                       lambda: layers.update([("a", nn.ReLU(), 1)]), lambda: layers.update({"x": 3}),
                       lambda: layers.update({"a.b": nn.ReLU()}), lambda: layers())
        layers.clear()
        return seen + [len(layers), list(layers.parameters())]
    wick_seen, torch_seen = both(program)
    assert wick_seen == torch_seen


def test_module_dict_update_messages():
    def program(lib):
        messages = []
        for bad in (3, [lib.nn.ReLU()], [("a", lib.nn.ReLU(), 1)]):
            with pytest.raises(Exception) as info:
                lib.nn.ModuleDict(bad)
            messages.append(str(info.value))
        return messages
    wick_messages, torch_messages = both(program)
    assert wick_messages == torch_messages


def test_unflatten_argument_errors():
    def program(lib):
        messages = []
        for bad in ((1.0, (2, 3)), (1, 6), (1, (2, 3.0))):
            with pytest.raises(TypeError) as info:
                lib.nn.Unflatten(*bad)
            messages.append(str(info.value))
        return messages + errors(lambda: lib.nn.Unflatten(1, (2, 3))(lib.zeros(2, 7)))
    wick_seen, torch_seen = both(program)
    assert wick_seen == torch_seen


def test_module_list():
    def program(lib):
        nn = lib.nn
        layers = nn.ModuleList([nn.Linear(1, 1), nn.ReLU()])
        layers.append(nn.Tanh())
        layers.extend([nn.Sigmoid(), nn.Linear(1, 2)])
        layers += nn.ModuleList([nn.ReLU()])
        layers.insert(1, nn.Identity())
        seen = [len(layers), [type(m).__name__ for m in layers], type(layers[-2]).__name__,
                type(layers[1:3]).__name__, len(layers[1:3]), [n for n, _ in layers.named_children()],
                [n for n, _ in layers.named_parameters()]]
        layers[0] = nn.GELU()
        del layers[2:4]
        seen += [[n for n, _ in layers.named_children()], [type(m).__name__ for m in layers],
                 len(layers + nn.ModuleList([nn.ReLU()]))]
        seen += errors(lambda: layers[7], lambda: layers.extend(3), lambda: layers.append(3))
        return seen
    wick_seen, torch_seen = both(program)
    assert wick_seen == torch_seen


# --- layers and losses against torch.nn ---

def normal(shape, requires_grad=True):
    return lambda lib, rng: lib.from_numpy(rng.standard_normal(shape)).requires_grad_(requires_grad)


def indices(high, shape):
    return lambda lib, rng: lib.from_numpy(rng.integers(0, high, shape))


def probabilities(shape):
    return lambda lib, rng: lib.from_numpy(rng.uniform(0.05, 0.95, shape)).requires_grad_()


def class_weights(nn):
    lib = wick if nn is wick.nn else torch
    return lib.tensor([1.0, 2.0, 0.5, 1.5], dtype=lib.float64)


def case(build, inputs, name):
    """A layer check: build(nn) makes the module; inputs, each input(lib, rng), make its arguments."""
    return pytest.param(build, inputs, id=name)


LAYERS = [
    case(lambda nn: nn.Linear(5, 3), [normal((4, 5))], "Linear"),
    case(lambda nn: nn.Linear(5, 3, bias=False), [normal((2, 4, 5))], "Linear-nobias-3d"),
    case(lambda nn: nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 2)),
         [normal((6, 5))], "MLP"),
    case(lambda nn: nn.Identity(), [normal((3,))], "Identity"),
    case(lambda nn: nn.ReLU(), [normal((4, 5))], "ReLU"),
    case(lambda nn: nn.GELU(), [normal((4, 5))], "GELU"),
    case(lambda nn: nn.GELU(approximate="tanh"), [normal((4, 5))], "GELU-tanh"),
    case(lambda nn: nn.SiLU(), [normal((4, 5))], "SiLU"),
    case(lambda nn: nn.Sigmoid(), [normal((4, 5))], "Sigmoid"),
    case(lambda nn: nn.Tanh(), [normal((4, 5))], "Tanh"),
    case(lambda nn: nn.LeakyReLU(0.2), [normal((4, 5))], "LeakyReLU"),
    case(lambda nn: nn.ELU(0.5), [normal((4, 5))], "ELU"),
    case(lambda nn: nn.Softplus(2, 1), [normal((4, 5))], "Softplus"),
    case(lambda nn: nn.Hardtanh(-0.5, 0.7), [normal((4, 5))], "Hardtanh"),
    case(lambda nn: nn.Softmax(dim=1), [normal((4, 5))], "Softmax"),
    case(lambda nn: nn.LogSoftmax(dim=-1), [normal((3, 4, 5))], "LogSoftmax"),
    case(lambda nn: nn.LayerNorm(6), [normal((3, 6))], "LayerNorm"),
    case(lambda nn: nn.LayerNorm((3, 6), eps=1e-3, elementwise_affine=False), [normal((2, 3, 6))],
         "LayerNorm-noaffine"),
    case(lambda nn: nn.Embedding(10, 4, padding_idx=0), [indices(10, (3, 5))], "Embedding"),
    case(lambda nn: nn.Conv1d(3, 4, 3, stride=2, padding=1), [normal((2, 3, 9))], "Conv1d"),
    case(lambda nn: nn.Conv2d(3, 4, (3, 2), padding=1, dilation=(1, 2)), [normal((2, 3, 7, 6))],
         "Conv2d"),
    case(lambda nn: nn.Conv2d(4, 6, 3, stride=2, groups=2, bias=False), [normal((1, 4, 7, 7))],
         "Conv2d-groups"),
    case(lambda nn: nn.Conv2d(2, 3, 4, padding="same"), [normal((1, 2, 6, 5))], "Conv2d-same"),
    case(lambda nn: nn.Conv2d(2, 3, 3, padding=1, padding_mode="reflect"), [normal((1, 2, 5, 5))],
         "Conv2d-reflect"),
    case(lambda nn: nn.MaxPool2d(2), [normal((2, 3, 6, 6))], "MaxPool2d"),
    case(lambda nn: nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True), [normal((1, 2, 7, 6))],
         "MaxPool2d-padded"),
    case(lambda nn: nn.AvgPool2d(2), [normal((2, 3, 6, 6))], "AvgPool2d"),
    case(lambda nn: nn.AvgPool2d(3, 2, 1, count_include_pad=False), [normal((1, 2, 7, 6))],
         "AvgPool2d-padded"),
    case(lambda nn: nn.Flatten(), [normal((2, 3, 4))], "Flatten"),
    case(lambda nn: nn.Flatten(0, 1), [normal((2, 3, 4))], "Flatten-0-1"),
    case(lambda nn: nn.Unflatten(1, (3, 2)), [normal((2, 6, 4))], "Unflatten"),
    case(lambda nn: nn.Unflatten(-1, [2, 1, -1]), [normal((2, 3, 4))], "Unflatten-inferred"),
    case(lambda nn: nn.Unfold((2, 3), padding=1, stride=(2, 1)), [normal((2, 3, 5, 6))], "Unfold"),
    case(lambda nn: nn.Unfold(2, dilation=2), [normal((1, 2, 5, 5))], "Unfold-dilated"),
    case(lambda nn: nn.Fold((5, 6), (2, 3), padding=1, stride=(2, 1)), [normal((2, 18, 18))], "Fold"),
    case(lambda nn: nn.Sequential(nn.Unfold(3, padding=1), nn.Fold((4, 5), 3, padding=1)),
         [normal((2, 3, 4, 5))], "Unfold-Fold"),
    case(lambda nn: nn.Dropout(0.5).eval(), [normal((4, 5))], "Dropout-eval"),
    case(lambda nn: nn.MSELoss(), [normal((4, 3)), normal((4, 3), False)], "MSELoss"),
    case(lambda nn: nn.MSELoss(reduction="none"), [normal((4, 3)), normal((4, 3), False)],
         "MSELoss-none"),
    case(lambda nn: nn.L1Loss(reduction="sum"), [normal((4, 3)), normal((4, 3), False)], "L1Loss"),
    case(lambda nn: nn.CrossEntropyLoss(), [normal((6, 4)), indices(4, (6,))], "CrossEntropy"),
    case(lambda nn: nn.CrossEntropyLoss(weight=class_weights(nn), ignore_index=1, label_smoothing=0.1),
         [normal((6, 4)), indices(4, (6,))], "CrossEntropy-weighted-smoothed"),
    case(lambda nn: nn.NLLLoss(weight=class_weights(nn)), [normal((6, 4)), indices(4, (6,))],
         "NLLLoss-weighted"),
    case(lambda nn: nn.CrossEntropyLoss(reduction="sum"), [normal((2, 4, 3)), indices(4, (2, 3))],
         "CrossEntropy-3d"),
    case(lambda nn: nn.NLLLoss(reduction="none"), [normal((6, 4)), indices(4, (6,))], "NLLLoss"),
    case(lambda nn: nn.BCELoss(), [probabilities((5, 2)), probabilities((5, 2))],
         "BCELoss"),
    case(lambda nn: nn.BCEWithLogitsLoss(), [normal((5, 2)), probabilities((5, 2))], "BCEWithLogitsLoss"),
]


@pytest.mark.parametrize("build, inputs", LAYERS)
def test_layer_matches_torch(build, inputs):
    def program(lib):
        module = seeded(build(lib.nn), lib)
        rng = np.random.default_rng(1)
        args = [make(lib, rng) for make in inputs]
        out = module(*args)
        weights = lib.from_numpy(np.random.default_rng(2).standard_normal(tuple(out.shape)))
        (out * weights).sum().backward()
        grads = [array(a.grad) for a in args if a.requires_grad]
        return [array(out)] + grads + [array(p.grad) for p in module.parameters()]
    wick_results, torch_results = both(program)
    assert len(wick_results) == len(torch_results)
    for w, t in zip(wick_results, torch_results):
        np.testing.assert_allclose(w, t, rtol=1e-7, atol=1e-10)


def test_dropout_in_training():
    x = wick.ones(1000, dtype=wick.float64)
    out = wick.nn.Dropout(0.25)(x).numpy()
    assert set(np.unique(out)) <= {0.0, 1 / 0.75} and 0.15 < (out == 0).mean() < 0.35
    with pytest.raises(ValueError, match="between 0 and 1"):
        wick.nn.Dropout(1.5)


def test_layer_argument_errors():
    for bad in (lambda nn: nn.Conv2d(3, 4, 3, groups=2), lambda nn: nn.Conv2d(4, 3, 3, groups=2),
                lambda nn: nn.Conv2d(2, 2, 3, stride=2, padding="same"), lambda nn: nn.Conv2d(2, 2, 3, padding="full"),
                lambda nn: nn.Conv2d(2, 2, 3, padding_mode="mirror"), lambda nn: nn.Embedding(3, 2, padding_idx=3)):
        for nn in (wick.nn, torch.nn):
            with pytest.raises((ValueError, AssertionError)):
                bad(nn)


def test_embedding_padding_row_and_from_pretrained():
    emb = wick.nn.Embedding(5, 3, padding_idx=-1)
    assert emb.padding_idx == 4 and emb.weight[4].tolist() == [0.0, 0.0, 0.0]
    table = wick.tensor([[1.0, 2.0], [3.0, 4.0]])
    pretrained = wick.nn.Embedding.from_pretrained(table)
    assert not pretrained.weight.requires_grad and pretrained.weight.tolist() == table.tolist()
    assert wick.nn.Embedding.from_pretrained(table, freeze=False).weight.requires_grad


def test_loss_legacy_reduction_arguments():
    with pytest.warns(UserWarning, match="reduction='sum'"):
        assert wick.nn.MSELoss(size_average=False).reduction == "sum"
    with pytest.warns(UserWarning):
        assert wick.nn.L1Loss(reduce=False).reduction == "none"
    assert wick.nn.BCEWithLogitsLoss(pos_weight=wick.ones(2)).pos_weight.tolist() == [1.0, 1.0]
    assert [n for n, _ in wick.nn.CrossEntropyLoss(weight=wick.ones(3)).named_buffers()] == ["weight"]


# --- initialisation ---

def bounds(t):
    values = t.detach().numpy()
    return values.min(), values.max()


@pytest.mark.parametrize("build, bound", [
    (lambda: wick.nn.Linear(50, 40), 1 / math.sqrt(50)),
    (lambda: wick.nn.Conv2d(6, 20, (3, 2), groups=2), 1 / math.sqrt(3 * 3 * 2)),
    (lambda: wick.nn.Conv1d(4, 30, 5), 1 / math.sqrt(4 * 5)),
], ids=["Linear", "Conv2d", "Conv1d"])
def test_fan_in_uniform_initialisation(build, bound):
    module = build()
    for p in (module.weight, module.bias):
        low, high = bounds(p)
        assert -bound <= low < -0.5 * bound and 0.5 * bound < high <= bound


def test_default_initialisations():
    norm = wick.nn.LayerNorm(4)
    assert norm.weight.tolist() == [1.0] * 4 and norm.bias.tolist() == [0.0] * 4
    values = wick.nn.Embedding(200, 50).weight.detach().numpy()
    assert abs(values.mean()) < 0.05 and abs(values.std() - 1) < 0.05


def test_init_functions():
    init = wick.nn.init
    t = wick.empty(100, 80, dtype=wick.float64)
    assert init.uniform_(t, -2, 3) is t
    low, high = bounds(t)
    assert -2 <= low < -1.9 and 2.9 < high < 3
    init.normal_(t, 1.0, 0.5)
    assert abs(t.numpy().mean() - 1.0) < 0.02 and abs(t.numpy().std() - 0.5) < 0.02
    assert init.constant_(t, 0.25).numpy().tolist()[0][:2] == [0.25, 0.25]
    assert set(np.unique(init.zeros_(t).numpy())) == {0.0} and set(np.unique(init.ones_(t).numpy())) == {1.0}
    bound = math.sqrt(6 / 180)
    low, high = bounds(init.xavier_uniform_(t))
    assert -bound <= low < -0.9 * bound and 0.9 * bound < high <= bound
    bound = math.sqrt(2.0) * math.sqrt(3 / 80)
    low, high = bounds(init.kaiming_uniform_(t, nonlinearity="relu"))
    assert -bound <= low < -0.9 * bound and 0.9 * bound < high <= bound
    assert abs(init.kaiming_normal_(t, mode="fan_out").numpy().std() - math.sqrt(2 / 1.0001) / 10) < 0.01
    assert abs(init.xavier_normal_(t, gain=2).numpy().std() - 2 * math.sqrt(2 / 180)) < 0.01
    p = wick.nn.Parameter(wick.zeros(3, 4))
    init.uniform_(p)  # a leaf that requires grad, written under no_grad
    assert p.is_leaf and p.grad_fn is None
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        init.xavier_uniform_(wick.empty(3))


@pytest.mark.parametrize("nonlinearity, param", [("linear", None), ("conv2d", None), ("sigmoid", None),
                                                 ("tanh", None), ("relu", None), ("leaky_relu", None),
                                                 ("leaky_relu", 0.2), ("selu", None)])
def test_calculate_gain_matches_torch(nonlinearity, param):
    assert wick.nn.init.calculate_gain(nonlinearity, param) == torch.nn.init.calculate_gain(nonlinearity, param)


def test_gradient_clipping_as_pytorch():
    def program(lib):
        lib.manual_seed(0)
        a = lib.tensor([[3.0, -4.0], [1.0, 2.0]], dtype=lib.float64, requires_grad=True)
        b = lib.tensor([0.5, -12.0], dtype=lib.float64, requires_grad=True)
        out = []
        for norm_type, max_norm in ((2.0, 1.0), (1.0, 100.0), (float("inf"), 2.0)):
            a.grad, b.grad = None, None
            ((a * a).sum() + (b * b * b).sum()).backward()
            total = lib.nn.utils.clip_grad_norm_([a, b], max_norm, norm_type)
            out.append([total.item(), a.grad.tolist(), b.grad.tolist()])
        lib.nn.utils.clip_grad_value_([a, b], 0.5)
        out.append([a.grad.tolist(), b.grad.tolist()])
        return out
    wick_out, torch_out = both(program)
    assert _close(wick_out, torch_out)


def _close(got, want):
    if isinstance(want, list):
        return len(got) == len(want) and all(_close(g, w) for g, w in zip(got, want))
    return got == pytest.approx(want, rel=1e-9, abs=1e-12)
