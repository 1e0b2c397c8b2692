# SPDX-License-Identifier: MIT
"""wirejson: deterministic JSON renderings and stable digests for logged LLM
API requests, over the wirejson C library.

The functions carry the SQL names and positional arguments (docs/contract.md §12):

    >>> import wirejson
    >>> wirejson.wire_json('{"b":1,"a":[1.0]}')
    '{"a":[1.0],"b":1}'
    >>> wirejson.data_digest({"a": 1}) == wirejson.data_digest('{"a":1.0}')
    True

A document is JSON text when it is a str, bytes, bytearray, or a memoryview
or array of single bytes (format B, b or c), taken whole; otherwise a Python
value (dict with str keys, list, tuple, str, int, float, bool, None, numpy's
bool_, integer and floating scalars, Fragment).  Errors are wirejson.Error (a ValueError) with the
SQL message, .offset and .code.  wirejson.sqlite loads the SQLite extension
shipped in this package; wirejson.arrow has the functions over Arrow
columns (pyarrow, pandas, Polars, DuckDB); ``python3 -m wirejson.dedup`` is
the distributed dedup job.
"""

from ._wirejson import (
    Conversation,
    Error,
    Fragment,
    canonical_arguments,
    canonical_json,
    common_prefix_length,
    data_digest,
    encode_with_schemas,
    message_digest,
    messages_digest,
    prefix_digests,
    prompt_prefix_digests,
    tool_schemas,
    version,
    wire_json,
    wire_json_sorted,
    wirejson_error,
    wirejson_error_position,
    with_top_level,
)

# wirejson.sqlite is there after "import wirejson"; it imports only os (the
# caller's sqlite3 connection comes in as an argument).
from . import arrow, sqlite  # noqa: E402,F401

__version__ = version()

__all__ = [
    "Conversation",
    "Error",
    "Fragment",
    "canonical_arguments",
    "canonical_json",
    "common_prefix_length",
    "data_digest",
    "encode_with_schemas",
    "message_digest",
    "messages_digest",
    "prefix_digests",
    "prompt_prefix_digests",
    "tool_schemas",
    "version",
    "wire_json",
    "wire_json_sorted",
    "wirejson_error",
    "wirejson_error_position",
    "with_top_level",
]
