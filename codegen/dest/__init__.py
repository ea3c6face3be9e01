"""One emitter per kind of output; each returns {relative path: content}."""
