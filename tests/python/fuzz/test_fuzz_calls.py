"""tests/python/fuzz/test_fuzz_calls.py: random argument lists for every generated function and Tensor method.

Each binding the generator makes (fuzz_strategies.bindings, from the declarations) gets
calls with values of its parameters' types and of every other kind, wrong counts and
wrong keywords, edge ints, NaN, NumPy scalars and arrays, and hostile objects that
change their list while it is read. The Tensor methods and wick callables that no
declaration makes (operators, constructors, interop) get any few values.

Every parameter that reads a container (int[], Tensor[], the data of wick.tensor()) also
gets containers that change while they are read: an element whose __index__ or
__float__ empties or grows its list, a sequence whose length changes or lies.

A call may raise only one of fuzz_child.EXPECTED; it runs in a forked child
(fuzz_child.py), so a crash, a hang or another exception fails the one example,
reported with the call that did it.
"""
import pytest
from hypothesis import given, note, settings

import wick
from fuzz_child import Child
from fuzz_recipes import describe_call
from fuzz_strategies import Binding, Param, bindings, call_recipes, examples, hostile_call_recipes, hostile_slot

# Callables of wick that no declaration makes, taken from the module and the Tensor type.
_NOT_FUZZED = {"__init_subclass__", "__new__", "__class__"}
# Functions that read and write files at the paths they are given (random strings here): hostile input to
# them is files, which tests/python/serialization builds by hand.
_FILE_FUNCTIONS = {"save", "load", "save_file", "load_file"}


def _undeclared():
    declared = {(b.method, b.name) for b in bindings()}
    own = set(wick._C.TensorBase.__dict__) | set(wick.Tensor.__dict__)
    methods = [Binding(n, True, ()) for n in sorted(own - _NOT_FUZZED)
               if callable(getattr(wick.Tensor, n, None)) and (True, n) not in declared]
    functions = [Binding(n, False, ()) for n in sorted(dir(wick)) if not n.startswith("_") and n not in _FILE_FUNCTIONS
                 and callable(getattr(wick, n)) and (False, n) not in declared]
    return methods + functions


BINDINGS = list(bindings()) + _undeclared()


@pytest.fixture(scope="module")
def child():
    c = Child()
    yield c
    c.close()


def _check(child, recipe):
    shown = describe_call(recipe)
    note(f"call: {shown}")
    outcome = child.run("fuzz_recipes", "call", recipe)
    if outcome[0] == "returned" or (outcome[0] == "raised" and outcome[4] == "expected"):
        return
    if outcome[0] == "raised":
        raise AssertionError(f"{shown} raised {outcome[1]}: {outcome[2]}\n{outcome[3]}")
    raise AssertionError(f"{shown}: the child {outcome[0]} ({outcome[1]})\n{outcome[2]}")


@pytest.mark.parametrize("binding", BINDINGS, ids=lambda b: ("Tensor." if b.method else "wick.") + b.name)
def test_any_arguments_raise_a_documented_error(child, binding):
    @settings(max_examples=examples(12))
    @given(recipe=call_recipes(binding))
    def calls(recipe):
        _check(child, recipe)

    calls()


def _data(name):
    return Param(name, "object", False, False, False, False, False)


def _hostile_slots():
    """(binding, overload, parameter) for each parameter that reads a container: int[], Tensor[] and the
    data of wick.tensor() and the like; and the same for the constructors and the mapping protocol."""
    slots = [(b, i, p.name) for b in bindings() for i, params in enumerate(b.overloads) for p in params
             if hostile_slot(p)]
    constructors = [n for n in sorted(dir(wick)) if isinstance(getattr(wick, n), type)
                    and issubclass(getattr(wick, n), wick.Tensor)]
    slots += [(Binding(n, False, ((_data("data"),),)), 0, "data") for n in constructors]
    getitem = Binding("__getitem__", True, ((_data("index"),),))
    setitem = Binding("__setitem__", True, ((_data("index"), _data("value")),))
    return slots + [(getitem, 0, "index"), (setitem, 0, "index"), (setitem, 0, "value")]


@pytest.mark.parametrize("binding,overload,name", _hostile_slots(),
                         ids=lambda v: v if isinstance(v, str) else v.name if isinstance(v, Binding) else None)
def test_containers_that_change_while_read(child, binding, overload, name):
    @settings(max_examples=examples(8))
    @given(recipe=hostile_call_recipes(binding, overload, name))
    def calls(recipe):
        _check(child, recipe)

    calls()
