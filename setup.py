"""Build the Cython cores and generate the gRPC stubs. Compiler directives live
here and only here.

Set REGENT_DEBUG_CYTHON=1 to rebuild with bounds, wraparound and initialization
checks on and without optimisation, for debugging a crash in the core.

The stubs are generated from proto/ into the `regent.v1` package at every
build; they are never committed.
"""

import os
from pathlib import Path

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

ROOT = Path(__file__).resolve().parent
#: The packages whose .pyx files are built and whose .pxd files are installed: the engine,
#: every game under it, and the search.
CYTHON_PACKAGES = [
    "engine",
    *sorted(f"engine.{d.parent.name}" for d in ROOT.glob("engine/*/__init__.py")),
    "search",
]


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


#: Every .pyx of those packages, e.g. engine.<game>.core.
EXTENSIONS = sorted(
    module_name(pyx)
    for package in CYTHON_PACKAGES
    for pyx in (ROOT / package.replace(".", "/")).glob("*.pyx")
)


def generate_stubs() -> None:
    """proto/regent/v1/*.proto -> regent/v1/*_pb2.py, *_pb2.pyi, *_pb2_grpc.py."""
    import grpc_tools
    from grpc_tools import protoc

    protos = sorted((ROOT / "proto").rglob("*.proto"))
    include = Path(grpc_tools.__file__).parent / "_proto"
    args = [
        "grpc_tools.protoc",
        f"-I{ROOT / 'proto'}",
        f"-I{include}",
        f"--python_out={ROOT}",
        f"--pyi_out={ROOT}",
        f"--grpc_python_out={ROOT}",
        *(str(p) for p in protos),
    ]
    if protoc.main(args) != 0:
        raise RuntimeError("protoc failed on proto/")
    for package in ("regent", "regent/v1"):
        init = ROOT / package / "__init__.py"
        init.write_text('"""Generated from proto/ at build time; do not edit."""\n')


def extension(name: str) -> Extension:
    return Extension(
        name,
        [name.replace(".", "/") + ".pyx"],
        extra_compile_args=COMPILE_ARGS,
    )


generate_stubs()
setup(
    packages=[
        *CYTHON_PACKAGES,
        "convert",
        "server",
        "server.web",
        "clients",
        "clients.tournament",
        "bench",
        "regent",
        "regent.v1",
    ],
    package_data={
        # The Cython declarations, the types of the Cython modules (.pyi; PEP 561), and the
        # heuristics' default fits.
        **{package: ["*.pxd", "*.pyi", "fits/*.json"] for package in CYTHON_PACKAGES},
        "engine": ["*.pxd", "*.pyi", "py.typed"],
        # The hint page: plain HTML, CSS and JavaScript modules, no build step.
        "server.web": ["static/*.html", "static/css/*.css", "static/js/*.js", "static/js/*/*.js"],
    },
    ext_modules=cythonize(
        [extension(name) for name in EXTENSIONS],
        compiler_directives=DIRECTIVES,
        force=DEBUG,
    ),
    zip_safe=False,
)
