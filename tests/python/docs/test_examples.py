"""Every `examples:` block of declarations/*.yaml, run as a doctest against the built module, a test per op.

The examples are what the manual and the docstrings show (Note [Examples] in codegen/model.py):
an example that no longer prints what it says fails here, with the op's name and the line.
"""
import doctest

import pytest

import wick
from declared import declarations

EXAMPLES = [d for d in declarations() if d.api.examples]


def test_the_common_ops_have_examples():
    """The ops a newcomer reaches for first each show how they are called."""
    named = {d.name for d in EXAMPLES}
    common = {"tensor", "zeros", "ones", "arange", "full", "linspace", "eye", "add", "sub", "mul", "div", "pow",
              "exp", "sqrt", "clamp", "where", "eq", "lt", "sum", "mean", "max", "argmax", "cumsum", "reshape",
              "view", "permute", "transpose", "squeeze", "unsqueeze", "flatten", "cat", "stack", "split", "chunk",
              "index_select", "gather", "masked_fill", "matmul", "mm", "dot", "sort", "topk"}
    assert common <= named, sorted(common - named)


@pytest.mark.parametrize("decl", EXAMPLES, ids=lambda d: d.name)
def test_example_prints_what_it_shows(decl):
    parser, report = doctest.DocTestParser(), []
    for example in decl.api.examples:
        test = parser.get_doctest(example.text, {"wick": wick}, decl.name, example.loc.file, example.loc.line)
        out = []
        runner = doctest.DocTestRunner(verbose=False)
        result = runner.run(test, out=out.append, clear_globs=True)
        if result.failed:
            report.append(f"the example at {example.loc}:\n" + "".join(out))
    assert not report, "\n".join(report)
