"""Errors that name the setting they come from."""

from __future__ import annotations


def naming(err: Exception, field: str, value) -> Exception:
    """``err`` again, of the same type (``ModelConfigError``, ``FileNotFoundError`` ...), its message
    prefixed with ``field=value: `` so that it names the setting (the command line maps fields to its
    options); a plain ``ValueError`` when the type cannot be built from one message."""
    text = f"{field}={value!r}: {err}"
    try:
        return type(err)(text)
    except TypeError:
        return ValueError(text)


__all__ = ["naming"]
