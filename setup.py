"""Build the Cython cores and generate the gRPC stubs. Compiler directives live
here and only here.

Set REGENT_DEBUG_CYTHON=1 to rebuild with bounds, wraparound and initialization
checks on and without optimisation, for debugging a crash in the core.

The stubs are generated from proto/ into the `regent.v1` package at every
build; they are never committed. MANIFEST.in says what the sdist carries beside the
packages: the .pyx sources and proto/, never generated C or stubs.

The build runs only as a script (`__name__ == "__main__"`, as pip and setuptools run it), so
that tests/test_packaging.py can read PACKAGES and PACKAGE_DATA without building.
"""

import os
from pathlib import Path

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


#: Every package of the distribution.
PACKAGES = [
    *CYTHON_PACKAGES,
    "convert",
    "server",
    "clients",
    "clients.cli",
    "clients.tournament",
    "clients.web",
    "bench",
    "regent",
    "regent.v1",
]

#: The files each package carries beside its modules, and only these (no generated C): the
#: Cython declarations (.pxd, for code that cimports them), the types of the compiled and
#: generated modules (.pyi; PEP 561), the data the code reads through importlib.resources
#: (engine/resources.py: the heuristics' default fits, a game's pick models), and the hint
#: page (plain HTML, CSS and JavaScript modules, no build step).
PACKAGE_DATA = {
    **{package: ["*.pxd", "*.pyi", "fits/*.json", "models/*.json"] for package in CYTHON_PACKAGES},
    "engine": ["*.pxd", "*.pyi", "py.typed"],
    "regent.v1": ["*.pyi"],
    # The schema migrations, Alembic's scripts (a folder, not a package: env.py runs only
    # under Alembic).
    "server": ["migrations/*.py", "migrations/versions/*.py"],
    "clients.web": [
        "static/*.html",
        "static/css/*.css",
        "static/css/*/*.css",
        "static/js/*.js",
        "static/js/*/*.js",
    ],
}


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


if __name__ == "__main__":
    from Cython.Build import cythonize

    generate_stubs()
    setup(
        packages=PACKAGES,
        package_data=PACKAGE_DATA,
        # Not the files the sdist's manifest lists under the packages (the generated C, the
        # .pyx sources): the wheel carries PACKAGE_DATA only.
        include_package_data=False,
        ext_modules=cythonize(
            [extension(name) for name in EXTENSIONS],
            compiler_directives=DIRECTIVES,
            force=DEBUG,
        ),
        zip_safe=False,
        # The extension modules compiled side by side, one per core.
        options={"build_ext": {"parallel": os.cpu_count() or 1}},
    )
