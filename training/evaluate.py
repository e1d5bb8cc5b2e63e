"""`python -m training.evaluate`: seat-balanced tournaments between policies (training.evaluation.tournament)."""

from training.evaluation.tournament import main

if __name__ == "__main__":
    main()
