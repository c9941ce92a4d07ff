"""jinja2's internals, as pnp uses them. Written for jinja2 3.1 (capped <3.2).

- the code generator (``Environment.code_generator_class``, documented as an extension point;
  ``CodeGenerator.visit_Concat`` and the ``environment`` name in generated code are not):
  the ``~`` operator compiles to a call of ``environment.bounded_join`` instead of
  ``str_join``, so that the sandbox sees, and bounds, every concatenation before it is made.
"""

from __future__ import annotations

from typing import Any

from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame

WRITTEN_FOR = ("3.1", "3.1")


class JoinHookCodeGenerator(CodeGenerator):
    """Compiles ``a ~ b ~ c`` to ``environment.bounded_join((a, b, c))``."""

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        self.write("environment.bounded_join((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")


def hooked(environment_class: type[Any]) -> type[Any]:
    """``environment_class`` with the code generator above (the class must define
    ``bounded_join(parts)``)."""
    environment_class.code_generator_class = JoinHookCodeGenerator
    return environment_class
