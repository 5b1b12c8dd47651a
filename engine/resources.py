"""What an install carries. The data files installed with the packages (the heuristics'
default fits, a game's pick models, the hint page) are found through importlib.resources
rather than beside a module's `__file__`, so that an install anywhere, zipped or relocated,
finds them; an optional extra that is missing is named with the line that installs it.

Every data folder is named by a call of `package_folder` with literal strings:
tests/test_packaging.py finds them in the source and checks that the wheel carries each."""

from __future__ import annotations

import importlib.metadata
import re
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


def install_line(extra: str) -> str:
    """The command that installs Regent with its optional `extra` (pyproject.toml)."""
    return f'pip install "regent[{extra}]"'


def missing_extra(extra: str) -> str | None:
    """What to install, in one line, when a distribution of Regent's optional `extra`
    (pyproject.toml, read from the installed metadata) is missing; None when all are there,
    or when Regent runs from a checkout that is not installed (no metadata to read)."""
    try:
        requires = importlib.metadata.requires("regent") or []
    except importlib.metadata.PackageNotFoundError:
        return None
    missing = []
    for requirement in requires:
        spec, _, marker = requirement.partition(";")
        if not re.search(rf"extra\s*==\s*['\"]{re.escape(extra)}['\"]", marker):
            continue
        name = re.split(r"[\s\[(<>=!~]", spec.strip(), maxsplit=1)[0]
        try:
            importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            missing.append(name)
    if not missing:
        return None
    return f"needs the {extra} extra ({', '.join(missing)} missing): {install_line(extra)}"
