"""`python -m training.evaluate`: seat-balanced tournaments between policies (training.evaluation.tournament)."""

import sys

from training.evaluation.tournament import main

if __name__ == "__main__":
    sys.exit(main())
