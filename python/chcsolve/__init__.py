"""chcsolve: a solver for constrained Horn clauses, from Python.

    import chcsolve
    r = chcsolve.solve(open("problem.smt2").read(), timeout=10)
    print(r.status)                # "sat", "unsat" or "unknown"
    print(r.model)                 # predicate name -> (define-fun ...) text, when sat
    print(r.evaluate("inv", [1]))  # the model applied to values, exactly

The input is CHC-COMP's SMT-LIB format or z3's fixedpoint format. Every model and every
derivation was checked against the input clauses by chcsolve's validator before it is
returned. The GIL is released while the engines run; Ctrl-C (KeyboardInterrupt) stops the
run and kills its solver processes. The engines need z3 (and yices, when found): see
`solvers/install`, or set CHCSOLVE_Z3 and CHCSOLVE_YICES.
"""

from os import PathLike
from typing import List, Optional, Sequence, Union

from . import _native

__all__ = ["solve", "solve_file", "solve_all", "Result", "Step"]
__version__ = "0.1.0"


class Step:
    """One clause application of a derivation of `false`.

    `clause` is the clause's position among the input's clauses (0-based) and `line` its
    line; `head` the derived predicate's name (None for the query, the last step) and `args`
    its values; `body` the body's applications as `(name, values)` pairs; `premises` for
    each body application the index of the earlier step that derived it; `values` the
    clause variables' values. Int values are ints, Real values `fractions.Fraction`s.
    """

    __slots__ = ("index", "clause", "line", "head", "args", "body", "premises", "values")

    def __init__(self, index: int, d: dict):
        self.index = index
        for k in self.__slots__[1:]:
            setattr(self, k, d[k])

    def __repr__(self) -> str:
        head = self.head if self.head is not None else "false"
        return f"<chcsolve.Step {self.index} {head}{self.args} (line {self.line})>"


class Result:
    """The answer to one query.

    `status` is the answer as chcsolve prints it for the input's `format`: for "chc-comp",
    "sat" means the clauses have a model; for "fixedpoint" (z3's format), "sat" means the
    query is reachable, as z3 says. `model` (predicate name -> SMT-LIB `define-fun` text)
    is there when the clauses have a model, `derivation` (a list of `Step`s, premises first
    and the query last) when `false` is derivable; `model_text` and `derivation_text` are
    the same as chcsolve's `--print-witness` prints them (a derivation through accelerated
    loops, with `expand=False`, comes as text only). `reason_unknown` says why an answer is
    unknown ("timeout", an engine's reason); `stats` holds the run's figures; `predicates`
    maps each predicate to its argument sorts.
    """

    __slots__ = (
        "status",
        "format",
        "reason_unknown",
        "model",
        "model_text",
        "derivation",
        "derivation_text",
        "predicates",
        "stats",
        "_handle",
    )

    def __init__(self, fmt: str, d: dict):
        self.format = fmt
        for k in self.__slots__[:-1]:
            if k != "format":
                setattr(self, k, d[k])
        if self.derivation is not None:
            self.derivation = [Step(i, s) for i, s in enumerate(self.derivation)]
        self._handle = d["handle"]

    def evaluate(self, pred: str, args: Sequence) -> bool:
        """The model's value of predicate `pred` on `args` (ints; ints or
        `fractions.Fraction`s for Real arguments; bools), by chcsolve's exact evaluator.
        Raises ValueError when there is no model, KeyError for an unknown predicate."""
        if self._handle is None:
            raise ValueError(f"no model: the answer is {self.status}")
        return _native.evaluate(self._handle, pred, list(args))

    def __repr__(self) -> str:
        if self.reason_unknown is not None:
            return f"<chcsolve.Result unknown ({self.reason_unknown})>"
        return f"<chcsolve.Result {self.status}>"


def solve_all(
    text: str,
    timeout: Optional[float] = None,
    engines: Optional[List[str]] = None,
    jobs: Optional[int] = None,
    solver: Optional[str] = None,
    expand: bool = True,
) -> List[Result]:
    """Solves every query of `text` (a fixedpoint script may ask several, each over the
    rules stated before it) within `timeout` seconds for all of them together; one
    `Result` per query. The other arguments are those of `solve`."""
    if engines is not None and isinstance(engines, str):
        engines = [engines]
    fmt, outs = _native.solve_all(text, timeout, engines, jobs, solver, expand)
    return [Result(fmt, o) for o in outs]


def solve(
    text: str,
    timeout: Optional[float] = None,
    engines: Optional[List[str]] = None,
    jobs: Optional[int] = None,
    solver: Optional[str] = None,
    expand: bool = True,
) -> Result:
    """Solves a problem given as text: CHC-COMP's SMT-LIB format (`declare-fun`, `assert`,
    `check-sat`) or z3's fixedpoint format with one `query`.

    `timeout` is in seconds (the answer is then unknown, `reason_unknown` "timeout");
    `engines` names engines to run side by side instead of the default schedule, as
    `--engine` does ("pdr", "bmc", "abmc", "kind", "tpa", "spacer", ...); `jobs` is the
    cores the default schedule is chosen for; `solver` the engines' SMT solver ("z3",
    "yices", "cvc5", "smtinterpol"); `expand` gives every step of a derivation found
    through accelerated loops. Raises ValueError on input chcsolve does not accept and
    RuntimeError when no solver is found."""
    rs = solve_all(text, timeout, engines, jobs, solver, expand)
    if len(rs) != 1:
        raise ValueError(f"{len(rs)} queries in the input: use chcsolve.solve_all")
    return rs[0]


def solve_file(path: Union[str, "PathLike[str]"], **kwargs) -> Result:
    """Solves the problem in the file at `path`; the keyword arguments are `solve`'s."""
    with open(path, encoding="utf-8") as f:
        return solve(f.read(), **kwargs)
