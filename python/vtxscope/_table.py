# SPDX-License-Identifier: MIT
"""The columnar result of :meth:`vtxscope.Replay.table`."""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional

import numpy as np


class Table:
    """Columns of equal length, one row per (frame, entity).

    Columns, in order: ``frame`` (int64), ``game_time`` (float64 seconds; NaN when the file has no
    frame times), ``id`` (the entity's unique id), ``display_name`` (the type's Name-like string
    property, else the unique id), then one column per requested property:

    - bool → ``bool``, int32 / int64 → ``int64``, float → ``float32``, double → ``float64``;
    - vectors, quaternions, transforms and ranges are split into components
      (``Position.x`` … ``Position.z``; ``Rotation.x`` … ``.w``; ``Pose.translation.x`` …
      ``Pose.rotation.w`` … ``Pose.scale.z``);
    - strings are categories (``codes()`` and ``categories()``; ``t[name]`` decodes them);
    - arrays and maps give their length (name an element with a path: ``Trail[2]``).

    Missing values (the entity lacks the property in that frame, or a path step is absent):
    NaN in float columns; a bool or int column with a missing value is returned as float64 with
    NaN (as pandas does), and ``valid(name)`` says which rows hold a value; ``None`` in string
    columns (code -1). ``problems`` lists chunks or frames that could not be read (with
    ``errors="skip"``).
    """

    def __init__(self, raw: Dict[str, Any], type_name: str, path: str) -> None:
        self.type = type_name
        self.path = path
        self.problems: List[dict] = raw["problems"]
        self.chunks_decoded: int = raw["chunks_decoded"]
        #: Decode threads the scan engine used (``threads=``, fewer when the budget held fewer chunks).
        self.decode_threads: int = raw["decode_threads"]
        self._rows: int = raw["rows"]
        self._columns: Dict[str, dict] = {}
        for c in raw["columns"]:
            name = c["name"]
            while name in self._columns:  # a property named like a base column
                name = self.type + "." + name
            self._columns[name] = c

    @property
    def names(self) -> List[str]:
        """Column names, in order."""
        return list(self._columns)

    def __len__(self) -> int:
        return self._rows

    def __contains__(self, name: str) -> bool:
        return name in self._columns

    def __iter__(self) -> Iterator[str]:
        return iter(self._columns)

    def _col(self, name: str) -> dict:
        try:
            return self._columns[name]
        except KeyError:
            raise KeyError(f"no column {name!r} (columns: {self.names})") from None

    def is_category(self, name: str) -> bool:
        return "categories" in self._col(name)

    def codes(self, name: str) -> np.ndarray:
        """A string column's category codes (int32; -1 where missing)."""
        c = self._col(name)
        if "categories" not in c:
            raise TypeError(f"column {name!r} is not a string column")
        return c["values"]

    def categories(self, name: str) -> List[str]:
        """A string column's distinct values, in order of first appearance."""
        c = self._col(name)
        if "categories" not in c:
            raise TypeError(f"column {name!r} is not a string column")
        return c["categories"]

    def valid(self, name: str) -> np.ndarray:
        """Which rows of a column hold a value (bool array)."""
        c = self._col(name)
        return c["valid"] if c["valid"] is not None else np.ones(self._rows, dtype=bool)

    def raw(self, name: str) -> np.ndarray:
        """The stored array: int64 / bool without NaN promotion (missing rows hold 0), codes for strings."""
        return self._col(name)["values"]

    def __getitem__(self, name: str) -> np.ndarray:
        c = self._col(name)
        values: np.ndarray = c["values"]
        if "categories" in c:
            cats = np.array(list(c["categories"]) + [None], dtype=object)
            return cats[values]  # code -1 picks the trailing None
        if c["valid"] is not None and values.dtype.kind in "biu":
            out = values.astype(np.float64)
            out[~c["valid"]] = np.nan
            return out
        return values

    def to_dict(self) -> Dict[str, np.ndarray]:
        """Every column as ``t[name]`` returns it."""
        return {n: self[n] for n in self._columns}

    def to_pandas(self):
        """A ``pandas.DataFrame``: strings as ``Categorical``, missing as NaN / NaN category."""
        import pandas as pd

        data = {}
        for name, c in self._columns.items():
            if "categories" in c:
                data[name] = pd.Categorical.from_codes(c["values"], categories=_categories_index(c["categories"]))
            else:
                data[name] = self[name]
        return pd.DataFrame(data, copy=False)

    def __repr__(self) -> str:
        return f"Table({self.type!r}, {self._rows} rows × {len(self._columns)} columns)"


def _categories_index(cats: List[str]):
    """A string column's categories as pandas wants them: strings, so an object index even when
    empty (pandas infers float64 for an empty list, and a table with no rows then had categories
    of another dtype than the others: joining it with them failed, "dtype of categories must be
    the same", in Dask's join as in batch.compute's)."""
    import pandas as pd

    return pd.Index(_unique_categories(cats), dtype=object)


def _unique_categories(cats: List[str]) -> List[str]:
    # Categories are distinct by construction; invalid UTF-8 replaced by U+FFFD could collide.
    if len(set(cats)) == len(cats):
        return cats
    seen: Dict[str, int] = {}
    out = []
    for c in cats:
        n = seen.get(c, 0)
        seen[c] = n + 1
        out.append(c if n == 0 else f"{c}#{n}")
    return out
