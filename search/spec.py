"""The text of a bot spec, `kind` or `kind:key=value,...`, as code that builds one writes it
(`search.bots.parse_spec` reads it)."""

from __future__ import annotations


def with_options(spec: str, *options: str) -> str:
    """`spec` with `options` (each `key=value`) appended: after a colon if it names none yet,
    else after a comma."""
    spec = spec.strip()
    if not options:
        return spec
    return f"{spec}{',' if ':' in spec else ':'}{','.join(options)}"


__all__ = ["with_options"]
