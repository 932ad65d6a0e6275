"""The exact solver the whist searches share (OR-Tools CP-SAT, the optional `search` extra;
the bot itself never needs it)."""

from __future__ import annotations

from typing import Any


def solved(model: Any, seconds: float, seed: int, workers: int = 1) -> Any | None:
    """The CP-SAT solver holding a solution of `model`, or None when it finds none within
    `seconds` (or proves there is none)."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return solver
