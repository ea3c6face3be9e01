"""wick.nn.modules.sparse: Embedding, a lookup table of vectors indexed by integers."""
import wick
from wick.nn import functional as F
from wick.nn import init
from wick.nn.modules.module import Module
from wick.nn.parameter import Parameter

__all__ = ["Embedding"]


class Embedding(Module):
    """Embedding(num_embeddings, embedding_dim, padding_idx=None, _weight=None, device=None, dtype=None)

    Row i of weight (num_embeddings, embedding_dim), drawn from N(0, 1), for each index i of the input. The
    row padding_idx starts at zeros and gets no gradient.
    """

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, _weight=None, device=None, dtype=None):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise ValueError("Padding_idx must be within num_embeddings")
            padding_idx %= num_embeddings
        self.padding_idx = padding_idx
        if _weight is None:
            self.weight = Parameter(wick.empty((num_embeddings, embedding_dim), device=device, dtype=dtype))
            self.reset_parameters()
        else:
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise ValueError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight)

    def reset_parameters(self):
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with wick.no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input):
        return F.embedding(input, self.weight, self.padding_idx)

    def extra_repr(self):
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        return s if self.padding_idx is None else s + f", padding_idx={self.padding_idx}"

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, padding_idx=None):
        """from_pretrained(embeddings, freeze=True, padding_idx=None) -> Embedding

        An Embedding over the 2-d tensor `embeddings` (shared, not copied), trained only if not freeze.
        """
        if embeddings.dim() != 2:
            raise ValueError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        embedding = cls(rows, cols, padding_idx, _weight=embeddings)
        embedding.weight.requires_grad = not freeze
        return embedding
