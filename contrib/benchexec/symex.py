# SPDX-License-Identifier: MIT OR Apache-2.0
"""BenchExec tool-info module for symex (`symex check`, SV-COMP verdicts).

With the repository's root on PYTHONPATH a benchmark definition names it
`<benchmark tool="contrib.benchexec.symex">` (copied into BenchExec's `benchexec/tools/`, `tool="symex"`); it finds `symex` on PATH (or in the current folder), runs
`symex check --property PRP [--data-model ILP32|LP64] [OPTIONS] INPUT` and reads the verdict from
the last line of its output: TRUE, FALSE, FALSE(valid-deref|valid-free|valid-memtrack), UNKNOWN.
"""

import benchexec.result as result
import benchexec.tools.template
from benchexec.tools.sv_benchmarks_util import ILP32, LP64, get_data_model_from_task

# The subproperties symex names in a FALSE verdict, as BenchExec's result constants.
_FALSE_SUBPROPERTY = {
    "valid-deref": result.RESULT_FALSE_DEREF,
    "valid-free": result.RESULT_FALSE_FREE,
    "valid-memtrack": result.RESULT_FALSE_MEMTRACK,
    "valid-memcleanup": result.RESULT_FALSE_MEMCLEANUP,
}


class Tool(benchexec.tools.template.BaseTool2):
    """symex: symbolic execution with a bounded-model-checking portfolio."""

    def executable(self, tool_locator):
        return tool_locator.find_executable("symex")

    def version(self, executable):
        # `symex --version` prints "symex X.Y.Z".
        return self._version_from_tool(executable, line_prefix="symex ")

    def name(self):
        return "symex"

    def project_url(self):
        return "https://github.com/symex-rs/symex"

    def cmdline(self, executable, options, task, rlimits):
        if task.property_file is None:
            raise benchexec.tools.template.UnsupportedFeatureException(
                "symex check needs a property file"
            )
        cmd = [executable, "check", "--property", task.property_file]
        data_model = get_data_model_from_task(
            task, {ILP32: ["--data-model", "ILP32"], LP64: ["--data-model", "LP64"]}
        )
        if data_model and "--data-model" not in options:
            cmd += data_model
        # Stop exploring a little before the CPU-time limit, so that the answer is symex's UNKNOWN
        # with its reasons instead of a kill.
        if rlimits.cputime and "--max-time" not in options:
            cmd += ["--max-time", str(max(1, int(rlimits.cputime * 0.9)))]
        return cmd + list(options) + [task.single_input_file]

    def determine_result(self, run):
        if not run.output:
            return result.RESULT_ERROR
        last = run.output[-1].strip()
        if last == "TRUE":
            return result.RESULT_TRUE_PROP
        if last == "FALSE":
            return result.RESULT_FALSE_PROP
        if last.startswith("FALSE(") and last.endswith(")"):
            sub = last[len("FALSE(") : -1]
            return _FALSE_SUBPROPERTY.get(sub, "ERROR (unknown subproperty %s)" % sub)
        if last == "UNKNOWN":
            return result.RESULT_UNKNOWN
        if run.exit_code.value == 2:
            return "ERROR (bad input)"
        return result.RESULT_ERROR
