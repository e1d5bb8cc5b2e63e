"""`python -m training.ladder`: the skill ladder. The code is in ``training.evaluation.ladder``."""

from training.evaluation.ladder import main

if __name__ == "__main__":
    main()
