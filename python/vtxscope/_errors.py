# SPDX-License-Identifier: MIT
"""Exceptions of the vtxscope package.

Every error the package raises is a :class:`Error` subclass carrying a ``code`` (the core's
``failed`` / ``superseded`` / ``out_of_range``, or the package's ``unknown_name`` /
``bad_expression`` / ``bad_argument`` / ``schema_mismatch``) and the context the failing call knows: ``path``,
``frame``, ``chunk`` and ``offset`` (the chunk record's byte offset in the file), each ``None``
when it does not apply. Test ``code`` or the class, never the message text.
"""

from __future__ import annotations

from typing import Any, Optional


class Error(Exception):
    """Base class: ``code``, ``message``, ``path``, ``frame``, ``chunk``, ``offset``."""

    code: str = "failed"

    def __init__(self, message: str, *, code: Optional[str] = None, path: Optional[str] = None,
                 frame: Optional[int] = None, chunk: Optional[int] = None, offset: Optional[int] = None,
                 **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.path = path
        self.frame = frame
        self.chunk = chunk
        self.offset = offset
        for k, v in extra.items():
            setattr(self, k, v)

    @property
    def context(self) -> dict:
        """path, frame, chunk and offset as a dict (``None`` where unknown)."""
        return {"path": self.path, "frame": self.frame, "chunk": self.chunk, "offset": self.offset}

    def __reduce__(self):  # picklable: Dask sends errors between processes
        state = dict(self.__dict__)
        message = state.pop("message")
        return (_rebuild, (type(self), message, state))


def _rebuild(cls, message, state):
    e = cls.__new__(cls)
    Exception.__init__(e, message)
    e.message = message
    e.__dict__.update(state)
    return e


class ReadError(Error):
    """The file could not be opened, read or decoded (code ``failed``)."""

    code = "failed"


class OutOfRangeError(Error, IndexError):
    """A frame or chunk that the file does not have (code ``out_of_range``)."""

    code = "out_of_range"


class CancelledError(Error):
    """The work was interrupted or superseded (code ``superseded``)."""

    code = "superseded"


class UnknownNameError(Error, LookupError):
    """An entity type or property the schema does not have (code ``unknown_name``);
    ``suggestion`` holds the closest name, or ``None``."""

    code = "unknown_name"
    suggestion: Optional[str] = None


class ExpressionError(Error, ValueError):
    """A query expression that does not compile (code ``bad_expression``): ``column`` (0-based,
    in code points) and ``suggestion`` ("did you mean")."""

    code = "bad_expression"
    column: Optional[int] = None
    suggestion: Optional[str] = None


class ArgumentError(Error, ValueError):
    """A bad argument to a vtxscope call (code ``bad_argument``)."""

    code = "bad_argument"


class SchemaMismatchError(Error, TypeError):
    """A replay's values do not fit the column type a batch fixed from the first replay's schema
    (code ``schema_mismatch``): ``column`` names the column."""

    code = "schema_mismatch"
    column: Optional[str] = None


_BY_CODE = {
    "failed": ReadError,
    "out_of_range": OutOfRangeError,
    "superseded": CancelledError,
    "unknown_name": UnknownNameError,
    "bad_expression": ExpressionError,
    "bad_argument": ArgumentError,
    "schema_mismatch": SchemaMismatchError,
}


def make_error(code: str, message: str, **context: Any) -> Error:
    """The exception for a code (used by the compiled module)."""
    cls = _BY_CODE.get(code, Error)
    return cls(message, code=code, **context)
