"""The bottom layer: what every other layer may use and nothing of the game. Checking
arguments and numbers (args), files written atomically (atomic), threads with progress and
Ctrl-C (parallel), Dask clusters (cluster), plots (plotting). It imports no other layer."""
