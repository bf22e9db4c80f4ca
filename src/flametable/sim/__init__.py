"""The simulation lab: seeded matches in parallel, statistics with confidence intervals, reports."""
