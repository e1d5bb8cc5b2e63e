"""`python -m training.ladder`: the skill ladder. The code is in ``training.evaluation.ladder``."""

import sys

from training.evaluation.ladder import main

if __name__ == "__main__":
    sys.exit(main())
