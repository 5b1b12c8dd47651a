"""`python -m clients.cli`: the `regent` command from a checkout."""

import sys

from clients.cli.main import main

if __name__ == "__main__":  # not when a walk over the package's modules imports it
    sys.exit(main())
