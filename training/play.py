"""`python -m training.play`: play in the terminal. The code is in ``training.playing.terminal``."""

import sys

from training.playing.terminal import main

if __name__ == "__main__":
    sys.exit(main())
