# SPDX-License-Identifier: MIT
"""The functions of wirejson over Arrow columns (docs/python.md, "Arrow"):

    >>> import pyarrow as pa, wirejson.arrow
    >>> r = wirejson.arrow.data_digest(pa.array(['{"a":1.0}', None]))
    >>> pa.array(r)[1].as_py() is None
    True

wirejson.arrow.FUNCTION(column, *names, on_error="raise", threads=1) for
every function of the table: column is any object exporting the Arrow
PyCapsule interface (pyarrow Array/ChunkedArray, Polars Series, DuckDB's
Arrow results, nanoarrow) of utf8, large_utf8, utf8_view or binary values,
read in place; the result exports __arrow_c_array__.  This module imports
no Arrow library: the C extension reads the C Data Interface itself.
"""

from . import _wirejson

# Made from the table of functions by the C extension (arrow.c).
globals().update(_wirejson._arrow_functions)
Result = _wirejson._ArrowResult

__all__ = sorted(_wirejson._arrow_functions) + ["Result"]
