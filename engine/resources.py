"""The data files installed with the packages (the heuristics' default fits, a game's pick
models, the hint page), found through importlib.resources rather than beside a module's
`__file__`, so that an install anywhere, zipped or relocated, finds them.

Every data folder is named by a call of `package_folder` with literal strings:
tests/test_packaging.py finds them in the source and checks that the wheel carries each."""

from __future__ import annotations

import sys
from fnmatch import fnmatch
from importlib.resources import files
from os import PathLike
from pathlib import Path
from typing import TypeAlias

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:  # pragma: no cover - Python 3.10
    from importlib.abc import Traversable

#: A file or folder to read: a file name, or what importlib.resources gives.
Source: TypeAlias = "str | PathLike[str] | Traversable"


def package_folder(package: str, name: str) -> Traversable:
    """The data folder `name` of an installed package, e.g. (a game's package, "models")."""
    return files(package).joinpath(name)


def readable(source: Source) -> Traversable:
    """A file name as a Path; what importlib.resources gives (a Traversable), as it is."""
    return Path(source) if isinstance(source, (str, PathLike)) else source


def folder_files(folder: Source, pattern: str, what: str) -> list[Traversable]:
    """The files of a folder whose names match `pattern` (fnmatch), in name order;
    FileNotFoundError names `what` the folder holds when it is not there (a package
    installed without its data)."""
    folder = readable(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"no folder of {what} at {folder}")
    found = [f for f in folder.iterdir() if f.is_file() and fnmatch(f.name, pattern)]
    return sorted(found, key=lambda f: f.name)
