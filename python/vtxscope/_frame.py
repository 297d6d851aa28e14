# SPDX-License-Identifier: MIT
"""Frames and entities as Python objects (what :meth:`vtxscope.Replay.frame` returns)."""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Union


class Vec3(NamedTuple):
    """A vector property (float64 components)."""
    x: float
    y: float
    z: float


class Quat(NamedTuple):
    """A quaternion property (float32 components, widened to float)."""
    x: float
    y: float
    z: float
    w: float


class Transform(NamedTuple):
    """A transform property: translation, rotation and scale."""
    translation: Vec3
    rotation: Quat
    scale: Vec3


class Range(NamedTuple):
    """A float range (stored data no schema field names)."""
    min: float
    max: float
    value_normalized: float


def parse_path(path: str) -> List[tuple]:
    """``"RoundStats[round_1].Kills"`` → ``[("name", "RoundStats"), ("key", "round_1"), ("name", "Kills")]``
    (the inspector's path syntax, as the core's PropertyPath reads it)."""
    out: List[tuple] = []
    i, n = 0, len(path)
    name = ""
    while i < n:
        ch = path[i]
        if ch == ".":
            if name:
                out.append(("name", name))
            elif not out or out[-1][0] != "key":
                raise KeyError(f"bad property path {path!r}: empty name at {i}")
            name = ""
        elif ch == "[":
            if name:
                out.append(("name", name))
                name = ""
            j = path.find("]", i)
            if j < 0:
                raise KeyError(f"bad property path {path!r}: '[' without ']' at {i}")
            out.append(("key", path[i + 1:j]))
            i = j
        else:
            name += ch
        i += 1
    if name:
        out.append(("name", name))
    if not out:
        raise KeyError(f"bad property path {path!r}")
    return out


_MISSING = object()


class Struct:
    """A property container: an entity, a nested struct, a struct-array element or a map value.

    ``s["Health"]``, ``s["Weapon.Ammo"]``, ``s["Trail[2].x"]``, ``s["RoundStats[round_1].Kills"]``
    read values by the inspector's path syntax (a ``KeyError`` when a step does not exist);
    ``properties`` holds the named values, ``unnamed`` what no schema name addresses
    (``{"byte_array_properties": {0: b"..."}}``; raw bytes are ``bytes``) and ``blobs`` the bytes
    the SDK's blob convention stored for a field, by the field's name.
    """

    __slots__ = ("type_name", "properties", "unnamed", "blobs")

    def __init__(self, type_name: Optional[str], properties: Dict[str, Any], unnamed: Dict[str, Dict[int, Any]],
                 blobs: Dict[str, bytes]) -> None:
        self.type_name = type_name
        self.properties = properties
        self.unnamed = unnamed
        self.blobs = blobs

    def __getitem__(self, path: str) -> Any:
        v: Any = self
        for kind, key in parse_path(path):
            v = _step(v, kind, key, path)
        return v

    def get(self, path: str, default: Any = None) -> Any:
        try:
            return self[path]
        except (KeyError, IndexError):
            return default

    def __contains__(self, path: str) -> bool:
        return self.get(path, _MISSING) is not _MISSING

    def keys(self):
        return self.properties.keys()

    def __iter__(self) -> Iterator[str]:
        return iter(self.properties)

    def __len__(self) -> int:
        return len(self.properties)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Struct) and self.type_name == other.type_name and self.properties == other.properties
                and self.unnamed == other.unnamed)

    def __repr__(self) -> str:
        return f"Struct({self.type_name!r}, {len(self.properties)} properties)"


def _step(v: Any, kind: str, key: str, path: str) -> Any:
    if isinstance(v, Struct):
        if kind == "name" and key in v.properties:
            return v.properties[key]
        raise KeyError(f"{path!r}: no property {key!r} in {v.type_name}")
    if isinstance(v, (list, bytes)):
        try:
            return v[int(key)]
        except (ValueError, IndexError):
            raise KeyError(f"{path!r}: no element {key!r} (length {len(v)})") from None
    if isinstance(v, dict):
        if key in v:
            return v[key]
        raise KeyError(f"{path!r}: no key {key!r}")
    if isinstance(v, tuple) and hasattr(v, "_fields") and kind == "name" and key in v._fields:
        return getattr(v, key)
    raise KeyError(f"{path!r}: cannot take {key!r} of {type(v).__name__}")


class Entity(Struct):
    """One entity of a frame: a :class:`Struct` plus where it is and what the file says of it.

    ``bucket`` (index) and ``bucket_name``, ``index`` in the bucket, ``unique_id``, ``type_id``,
    ``content_hash`` (stored), ``display_name`` (the type's Name-like string property, else the
    unique id) and ``damaged``: the containers whose stored hash matches neither variant
    (``[{"path", "stored_hash", "reason"}]``; empty when the values are the writer's).
    """

    __slots__ = ("bucket", "bucket_name", "index", "unique_id", "type_id", "content_hash", "damaged", "display_name")

    def __init__(self, type_name, properties, unnamed, blobs, bucket: int, index: int, unique_id: str, type_id: int,
                 content_hash: int, damaged: List[dict], display_name: str) -> None:
        super().__init__(type_name, properties, unnamed, blobs)
        self.bucket = bucket
        self.bucket_name = ""
        self.index = index
        self.unique_id = unique_id
        self.type_id = type_id
        self.content_hash = content_hash
        self.damaged = damaged
        self.display_name = display_name

    @property
    def id(self) -> str:
        return self.unique_id

    def __repr__(self) -> str:
        return f"Entity({self.type_name} {self.unique_id!r} in bucket {self.bucket}{', damaged' if self.damaged else ''})"


class Bucket:
    """A bucket of a frame: ``index``, ``name``, ``entities`` (a list); ``bucket["id"]`` finds an entity by unique id."""

    __slots__ = ("index", "name", "entities", "_by_id")

    def __init__(self, index: int, name: str, entities: List[Entity]) -> None:
        self.index = index
        self.name = name
        self.entities = entities
        for e in entities:
            e.bucket_name = name
        self._by_id: Optional[Dict[str, Entity]] = None

    def __getitem__(self, unique_id: str) -> Entity:
        if self._by_id is None:
            self._by_id = {}
            for e in self.entities:
                self._by_id.setdefault(e.unique_id, e)  # duplicates: the first, as the diff pairs them
        return self._by_id[unique_id]

    def __iter__(self) -> Iterator[Entity]:
        return iter(self.entities)

    def __len__(self) -> int:
        return len(self.entities)

    def __repr__(self) -> str:
        return f"Bucket({self.index} {self.name!r}, {len(self.entities)} entities)"


class Frame:
    """A decoded frame: ``index``, ``game_time`` (seconds), ``game_time_ticks`` and ``created_utc_ticks``
    (100 ns ticks; UTC ticks count from 0001-01-01 as .NET does; each ``None`` when the file does not
    hold its frames' times, as a file recovered without its footer), ``integrity`` (counts of checked /
    partly covered / unchecked / damaged containers) and ``buckets``.

    ``frame["entities"]`` or ``frame[0]`` is a bucket (by name or index); ``frame.entity(id)`` finds an
    entity by unique id in any bucket; iterating yields every entity.
    """

    __slots__ = ("index", "game_time_ticks", "created_utc_ticks", "integrity", "buckets")

    def __init__(self, index: int, game_time_ticks: Optional[int], created_utc_ticks: Optional[int], integrity: dict,
                 buckets: List[Bucket]) -> None:
        self.index = index
        self.game_time_ticks = game_time_ticks
        self.created_utc_ticks = created_utc_ticks
        self.integrity = integrity
        self.buckets = buckets

    @property
    def game_time(self) -> Optional[float]:
        return None if self.game_time_ticks is None else self.game_time_ticks / 1e7

    def __getitem__(self, bucket: Union[int, str]) -> Bucket:
        if isinstance(bucket, int):
            return self.buckets[bucket]
        for b in self.buckets:
            if b.name == bucket:
                return b
        raise KeyError(f"no bucket named {bucket!r} (buckets: {[b.name for b in self.buckets]})")

    def entity(self, unique_id: str, bucket: Union[int, str, None] = None) -> Entity:
        """The entity with ``unique_id`` (in ``bucket`` when given); ``KeyError`` when absent."""
        buckets = self.buckets if bucket is None else [self[bucket]]
        for b in buckets:
            try:
                return b[unique_id]
            except KeyError:
                pass
        raise KeyError(f"no entity {unique_id!r} in frame {self.index}")

    @property
    def entities(self) -> List[Entity]:
        return [e for b in self.buckets for e in b.entities]

    def __iter__(self) -> Iterator[Entity]:
        for b in self.buckets:
            yield from b.entities

    def __len__(self) -> int:
        return sum(len(b) for b in self.buckets)

    def __repr__(self) -> str:
        return f"Frame({self.index}, {len(self)} entities in {len(self.buckets)} buckets)"
