"""Build the Cython cores. Compiler directives live here and only here.

Set REGENT_DEBUG_CYTHON=1 to rebuild with bounds, wraparound and initialization
checks on and without optimisation, for debugging a crash in the core.
"""

import os

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("REGENT_DEBUG_CYTHON", "") not in ("", "0")

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": not DEBUG,
    "nonecheck": DEBUG,
    "embedsignature": True,
}
COMPILE_ARGS = ["-O0", "-g"] if DEBUG else ["-O3"]

EXTENSIONS = [
    "engine.cstate",
    "engine.royal_cities.core",
    "engine.royal_cities.heuristic",
    "engine.royal_cities.api",
    "engine.royal_cities.state",
    "search.ismcts",
]


def extension(name: str) -> Extension:
    return Extension(
        name,
        [name.replace(".", "/") + ".pyx"],
        extra_compile_args=COMPILE_ARGS,
    )


setup(
    packages=["engine", "engine.royal_cities", "search", "server", "clients", "bench"],
    package_data={
        "engine": ["*.pxd", "py.typed"],
        "engine.royal_cities": ["*.pxd"],
        "search": ["*.pxd"],
    },
    ext_modules=cythonize(
        [extension(name) for name in EXTENSIONS],
        compiler_directives=DIRECTIVES,
        force=DEBUG,
    ),
    zip_safe=False,
)
