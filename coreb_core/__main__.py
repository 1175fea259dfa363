import sys

from coreb_core.cli import main

sys.exit(main())
