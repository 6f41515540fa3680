# BenchExec tool-info module for chcsolve, a CHC solver for CHC-COMP's LIA-Lin track.
#
# solvers/install links this file into the virtualenv's BenchExec as
# benchexec/tools/chcsolve.py, so benchmark definitions name it tool="chcsolve" (as
# BenchExec's own modules, e.g. tool="z3"). Elsewhere, copy it into the tools/ folder of
# the BenchExec installation in use (see README.md, "BenchExec").
#
# Check it with BenchExec's own checker:
#   solvers/.venv/bin/python -m benchexec.test_tool_info chcsolve --tool-directory .
"""BenchExec tool info for chcsolve."""

import benchexec.result as result
import benchexec.tools.template


class Tool(benchexec.tools.template.BaseTool2):
    """
    chcsolve reads one CHC-COMP file (SMT-LIB2, logic HORN) and prints one verdict line:
    sat (the clauses have a model: the program is safe), unsat (a counterexample),
    unknown, or (error "...") on bad input (exit code 1).

    The executable is looked up as target/release/chcsolve under --tool-directory (the
    repository), then as chcsolve on PATH. The run's time limit is passed as --timeout
    (chcsolve's limit is wall-clock; it prints unknown when it is reached): the wall-time
    limit when one is set, else the CPU-time limit. chcsolve's portfolio runs one lane per
    core, so its CPU time grows faster than its wall time; BenchExec's CPU-time limit may
    then end a run first, which BenchExec reports as TIMEOUT (also unsolved).
    The property file is not passed: CHC-COMP's only property is the satisfiability of
    the clauses (benchexec/check-sat.prp names it for the expected verdicts).
    """

    REQUIRED_PATHS = []

    def executable(self, tool_locator):
        return tool_locator.find_executable("chcsolve", subdir="target/release")

    def version(self, executable):
        """The version on the first line of `chcsolve --version` (`chcsolve 0.1.0`): `0.1.0`.

        The lines after it name the SMT solvers found, with their versions; they are not
        chcsolve's version, so they stay out of the results tables' version column.
        Warnings on standard error (a logging setting) do not hide the version.
        """
        output = self._version_from_tool(executable, ignore_stderr=True)
        first = output.splitlines()[0].split() if output else []
        if len(first) == 2 and first[0] == "chcsolve":
            return first[1]
        return ""

    def name(self):
        return "chcsolve"

    def cmdline(self, executable, options, task, rlimits):
        if len(task.input_files) > 1:
            raise benchexec.tools.template.UnsupportedFeatureException(
                "chcsolve reads one input file per run"
            )
        cmd = [executable]
        limit = rlimits.walltime or rlimits.cputime
        if limit and "--timeout" not in options:
            cmd += ["--timeout", str(limit)]
        return cmd + list(options) + list(task.input_files_or_identifier)

    def determine_result(self, run):
        """The verdict is the first non-empty line of standard output."""
        for line in run.output:
            line = line.strip()
            if not line:
                continue
            if line == "sat":
                return result.RESULT_TRUE_PROP
            if line == "unsat":
                return result.RESULT_FALSE_PROP
            if line == "unknown":
                return result.RESULT_UNKNOWN
            if line.startswith("(error"):
                return result.RESULT_ERROR
            break
        return result.RESULT_ERROR
