# SPDX-License-Identifier: MIT
"""vtxscope: read VTX replay files from Python.

    import vtxscope
    with vtxscope.open("match.vtx") as r:
        print(len(r), r.info["backend"])
        e = r.frame(0)["entities"]["player_1"]
        print(e["Health"], e.display_name)
        t = r.table("Player", ["Health", "Position"], where="IsAlive")
        df = t.to_pandas()

The reading is done by vtxscope's C++ core (the same code as the viewer and ``vtxscope-cli``),
with the GIL released while it decodes. ``vtxscope.batch`` runs the same over many replays on Dask.
"""

from __future__ import annotations

import os
from typing import Any, Iterable, List, NamedTuple, Optional, Sequence, Union

import numpy as np

from . import _vtxscope
from ._errors import (ArgumentError, CancelledError, Error, ExpressionError, OutOfRangeError, ReadError,
                      SchemaMismatchError, UnknownNameError)
from ._frame import Bucket, Entity, Frame, Quat, Range, Struct, Transform, Vec3
from ._table import Table

__all__ = [
    "open", "Replay", "diverge", "Table", "Frame", "Bucket", "Entity", "Struct", "Vec3", "Quat", "Transform", "Range",
    "Times", "Error", "ReadError", "OutOfRangeError", "CancelledError", "UnknownNameError", "ExpressionError",
    "ArgumentError", "SchemaMismatchError", "SCAN_THREADS",
]

__version__ = "0.1.0"

#: Decode threads a whole-file scan uses by default (:meth:`Replay.table`'s ``threads``): the
#: core's kScanThreads, measured on 2-core hosts (docs/PERFORMANCE.md, "Scan engine").
SCAN_THREADS: int = _vtxscope.SCAN_THREADS

#: .NET ticks (100 ns since 0001-01-01) of the Unix epoch: UTC frame times are stored this way.
DOTNET_UNIX_EPOCH_TICKS = 621355968000000000


class Times(NamedTuple):
    """Per-frame times: ``game_time`` (float64 seconds), ``game_ticks`` (int64, 100 ns),
    ``utc`` (``datetime64[ns]``, NaT where unknown) and ``utc_ticks`` (int64 as stored: 100 ns
    ticks since the Unix epoch, or .NET ticks since 0001-01-01, told apart as the viewer does)."""
    game_time: np.ndarray
    game_ticks: np.ndarray
    utc: np.ndarray
    utc_ticks: np.ndarray


PathLike = Union[str, "os.PathLike[str]"]


class Replay:
    """An open replay. Use :func:`open`; close with ``close()`` or a ``with`` block.

    ``budget_mb``: memory for decoded chunks kept for :meth:`frame` (default: a quarter of
    physical memory, as the viewer). :meth:`table` decodes chunk by chunk outside that cache,
    through the scan engine, and holds at most ``threads + 1`` chunks (see :meth:`table`) plus its
    result, within the budget.
    """

    def __init__(self, path: PathLike, budget_mb: Optional[float] = None) -> None:
        self._path = os.fspath(path)
        self._r = _vtxscope.Replay(self._path, budget_mb)
        self._info: Optional[dict] = None
        self._schema: Optional[dict] = None

    # -- life time
    def close(self) -> None:
        """Releases the file and its cache; later calls raise :class:`ArgumentError`."""
        self._r.close()

    def __enter__(self) -> "Replay":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"vtxscope.Replay({self._path!r})"

    # -- what the file is
    @property
    def path(self) -> str:
        return self._path

    @property
    def backend(self) -> str:
        """``"flatbuffers"`` or ``"protobuf"``."""
        return self._r.backend

    @property
    def is_recovered(self) -> bool:
        """True when the footer was unusable and the chunks were recovered by walking the records."""
        return self._r.is_recovered

    def __len__(self) -> int:
        """Number of frames."""
        return self._r.frame_count

    @property
    def info(self) -> dict:
        """What ``vtxscope-cli info`` prints (header, schema summary, seek table, times, events,
        per-type hash trust from the first, middle and last chunk, problems), as Python objects.
        Computed on first use (it decodes up to three chunks)."""
        if self._info is None:
            self._info = self._r.info()
        return self._info

    @property
    def schema(self) -> dict:
        """``{"version", "buckets": [...], "types": {name: {"type_id", "display_name_field",
        "fields": {name: {"type", "container", "struct_type", "display_name", "category"}}}}}``."""
        if self._schema is None:
            self._schema = self._r.schema()
        return self._schema

    @property
    def times(self) -> Times:
        """Per-frame game time and UTC as numpy arrays (empty when the file has no frame times)."""
        game, utc = self._r.times()
        # 100 ns ticks since the Unix epoch, or .NET ticks (since 0001-01-01): as the viewer reads them.
        unix = np.where(utc >= DOTNET_UNIX_EPOCH_TICKS, utc - DOTNET_UNIX_EPOCH_TICKS, utc)
        known = unix > 0
        ns = np.where(known, unix * 100, 0).astype("datetime64[ns]")
        ns[~known] = np.datetime64("NaT")
        return Times(game.astype(np.float64) / 1e7, game, ns, utc)

    @property
    def events(self) -> List[dict]:
        """Timeline events from the footer, as in ``info``."""
        return self.info.get("events", [])

    @property
    def problems(self) -> List[Any]:
        """What opening the file found (strict-mode findings, recovery), as in ``info``."""
        return self.info.get("problems", [])

    @property
    def hash_trust(self) -> dict:
        """Per struct type, whether stored content hashes cover the whole container (``info``'s ``hash_trust``)."""
        return self.info.get("hash_trust", {})

    @property
    def chunks(self) -> List[tuple]:
        """``(first_frame, last_frame)`` of every chunk, in order."""
        return self._r.chunk_frames()

    # -- frames
    def frame(self, n: int) -> Frame:
        """Frame ``n`` (negative counts from the end) with every entity and its values.

        Values: ``bool``, ``int``, ``float``, ``str``, :class:`Vec3`, :class:`Quat`,
        :class:`Transform`, nested :class:`Struct`, lists for arrays, dicts for maps, ``bytes``
        for raw bytes (under ``entity.unnamed`` / ``entity.blobs``). Raises
        :class:`OutOfRangeError` for a frame the file does not have, :class:`ReadError` (with
        ``chunk`` and ``offset``) when its chunk cannot be decoded."""
        n = _index(n, len(self))
        return self._r.frame(n)

    def __getitem__(self, n: int) -> Frame:
        return self.frame(n)

    def table(self, type: str, properties: Optional[Sequence[str]] = None, frames: Any = None,
              where: Optional[str] = None, step: int = 1, errors: str = "raise",
              threads: Optional[int] = None) -> Table:
        """A columnar :class:`Table` of every entity of ``type``: one row per (frame, entity).

        ``properties``: property paths (``"Health"``, ``"Position"``, ``"Weapon.Ammo"``,
        ``"RoundStats[round_1].Kills"``); default every scalar, non-struct property of the type.
        ``frames``: ``None`` (all), a ``range`` / ``slice``, an ``(start, stop)`` pair (stop
        exclusive) or a sequence of frame numbers. ``step``: every ``step``-th of those frames.
        ``where``: a query expression (README "Query language"); rows are the entities it
        matches (an expression about the frame, ``any(...)``, keeps or drops whole frames).
        ``errors``: ``"raise"`` (default) raises :class:`ReadError` for an unreadable chunk;
        ``"skip"`` leaves its frames out and lists them in ``table.problems``.

        ``threads``: decode threads of the scan engine (default :data:`SCAN_THREADS`, 2): they
        decompress and verify the next chunks while the calling thread reads the current one.
        ``1`` decodes every chunk on the calling thread. The table is the same for any count.

        Built in C++ chunk by chunk with the GIL released; missing values are NaN / None (see
        :class:`Table`). Memory: the result plus at most ``threads + 1`` decoded chunks (the one
        read and ``threads`` decoding or decoded ahead; one more when ``where`` uses
        ``changed()``), or one with ``threads=1``; when the replay's budget (``budget_mb``) holds
        fewer chunks of the size of the first, fewer threads are used (``table.decode_threads``)."""
        if not isinstance(type, str):
            raise ArgumentError("type must be a str", path=self._path)
        if isinstance(properties, str):
            properties = [properties]
        if errors not in ("raise", "skip"):
            raise ArgumentError("errors must be 'raise' or 'skip'", path=self._path)
        threads = _threads(threads, self._path)
        sel = _frames(frames, len(self), step, self._path)
        raw = self._r.table(type, list(properties or []), sel, where or "", errors == "skip", threads)
        return Table(raw, type, self._path)

    def query(self, expression: str, start: int = 0, stop: Optional[int] = None, threads: Optional[int] = None) -> dict:
        """Frames ``start`` .. ``stop`` (inclusive; default the last) where ``expression`` holds and,
        per frame, the matching entities: what ``vtxscope-cli query --json`` prints. A bad
        expression raises :class:`ExpressionError` with ``column`` and ``suggestion``.
        ``threads``: the scan engine's decode threads, as for :meth:`table` (default
        :data:`SCAN_THREADS`; 1 decodes on the calling thread); the answer is the same."""
        threads = _threads(threads, self._path)
        return self._r.query(expression, start, -1 if stop is None else _index(stop, len(self)), threads)

    def diff(self, a: int, b: int, epsilon: float = 0.0, relative: float = 0.0, ignore: Iterable[str] = (),
             use_hash: bool = True) -> dict:
        """What changed from frame ``a`` to frame ``b``: ``vtxscope-cli diff --json``'s object."""
        return self._r.diff(_index(a, len(self)), _index(b, len(self)), float(epsilon), float(relative), list(ignore), use_hash)

    def validate(self, threads: Optional[int] = None) -> dict:
        """The strict whole-file check (``vtxscope-cli validate``): decodes every chunk.
        ``threads``: the scan engine's decode threads, as for :meth:`table`; the report is the
        same."""
        return self._r.validate(_threads(threads, self._path))


def open(path: PathLike, budget_mb: Optional[float] = None) -> Replay:  # noqa: A001 - the package's verb
    """Opens a replay (FlatBuffers or Protobuf; a file without a usable footer opens in recovery
    mode). Raises :class:`ReadError` when it cannot be read, with ``path``."""
    return Replay(path, budget_mb)


def diverge(a: Union[PathLike, Replay], b: Union[PathLike, Replay], align: str = "frame", offset: int = 0,
            epsilon: float = 0.0, relative: float = 0.0, ignore: Iterable[str] = (), threads: Optional[int] = None,
            skip_unreadable: bool = False) -> dict:
    """Where two runs diverge: ``vtxscope-cli diverge --json``'s object (``diverged``,
    ``first_divergence``, per-property largest deviations, ...). ``align``: ``"frame"`` or
    ``"time"``; ``offset``: frames or game-time ticks added to A's position; floats equal within
    ``epsilon`` (absolute) or ``relative``. ``threads``: the scan engine's decode threads for the
    pair (default :data:`SCAN_THREADS`: one per file, decoding ahead while this thread compares;
    1: both files decoded on the calling thread); the report is the same. A frame of either file
    that cannot be read raises :class:`ReadError`; with ``skip_unreadable`` its pairs are listed
    instead (``pairs_unreadable``, ``unreadable``: runs of pairs with the first reason) and the
    rest is compared, as ``vtxscope-cli diverge --skip-unreadable``."""
    threads = _threads(threads, str(a if not isinstance(a, Replay) else a.path))
    ra = a if isinstance(a, Replay) else Replay(a)
    rb = b if isinstance(b, Replay) else Replay(b)
    try:
        return _vtxscope.diverge(ra._r, rb._r, align, int(offset), float(epsilon), float(relative), list(ignore), threads,
                                 bool(skip_unreadable))
    finally:
        if ra is not a:
            ra.close()
        if rb is not b:
            rb.close()


#: The most decode threads a scan takes (``threads=``): each keeps a decoded chunk alive, and a
#: replay's chunks are tens of MB.
MAX_SCAN_THREADS = 64


def _threads(threads: Any, path: str) -> int:
    if threads is None:
        return SCAN_THREADS
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or not 1 <= threads <= MAX_SCAN_THREADS:
        raise ArgumentError(f"threads must be an int from 1 to {MAX_SCAN_THREADS} (is {threads!r})", path=path)
    return int(threads)


def _out_of_range(count: int) -> str:
    """``out of range (0..N-1)``; for a file without frames not ``(0..-1)``, which reads as a range."""
    return f"out of range (0..{count - 1})" if count > 0 else "out of range: the file has no frames"


def _index(n: int, count: int) -> int:
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
        raise ArgumentError(f"a frame number must be an int, not {type(n).__name__}")
    n = int(n)
    if n < 0:
        n += count
    if n < 0 or n >= count:
        raise OutOfRangeError(f"frame {n if n >= 0 else n - count} is {_out_of_range(count)}", frame=n)
    return n


def _frames(frames: Any, count: int, step: int, path: str) -> np.ndarray:
    if not isinstance(step, (int, np.integer)) or step < 1:
        raise ArgumentError("step must be an int >= 1", path=path)
    if frames is None:
        sel = np.arange(0, count, dtype=np.int64)
    elif isinstance(frames, slice):
        sel = np.arange(count, dtype=np.int64)[frames]
    elif isinstance(frames, range):
        sel = np.asarray(frames, dtype=np.int64)
    elif isinstance(frames, tuple) and len(frames) == 2 and all(isinstance(x, (int, np.integer)) for x in frames):
        sel = np.arange(int(frames[0]), min(int(frames[1]), count), dtype=np.int64)
    else:
        try:
            sel = np.asarray(list(frames), dtype=np.int64)
        except (TypeError, ValueError, OverflowError):
            raise ArgumentError("frames must be None, a range, a slice, a (start, stop) pair or a sequence of ints",
                                path=path) from None
    if sel.size and (sel.min() < 0 or sel.max() >= count):
        bad = int(sel[(sel < 0) | (sel >= count)][0])
        raise OutOfRangeError(f"frame {bad} is {_out_of_range(count)}", path=path, frame=bad)
    sel = np.unique(sel)[::step]
    return np.ascontiguousarray(sel, dtype=np.int32)
