"""`python -m training.serve`: play in the browser. The code is in ``training.playing.server``."""

import sys

from training.playing.server import main

if __name__ == "__main__":
    sys.exit(main())
