"""Templates of layout elements: jinja2's immutable sandbox, with the sizes of what a
template may build bounded (no ``'x' * 10**9``, no ``10 ** 10**9``, no ``str.format``)."""

from __future__ import annotations

from typing import Any

from jinja2 import StrictUndefined
from jinja2.sandbox import ImmutableSandboxedEnvironment

MAX_TEMPLATE_VALUE = 10_000  # characters or items a template may build at once


def _check_args(args: Any, kwargs: Any) -> None:
    for value in [*args, *kwargs.values()]:
        if isinstance(value, int) and not isinstance(value, bool):
            if abs(value) > MAX_TEMPLATE_VALUE:
                raise ValueError(f"a template argument of {value} is too large")
        elif isinstance(value, str | list | tuple) and len(value) > MAX_TEMPLATE_VALUE:
            raise ValueError("a template argument is too large")


def _bounded_filter(fn: Any) -> Any:
    import functools

    @functools.wraps(fn)
    def bounded(*args: Any, **kwargs: Any) -> Any:
        _check_args(args[1:] if args else (), kwargs)
        result = fn(*args, **kwargs)
        if isinstance(result, str | list | tuple) and len(result) > MAX_TEMPLATE_VALUE * 10:
            raise ValueError("a template filter built too large a value")
        return result

    return bounded


class BoundedSandbox(ImmutableSandboxedEnvironment):
    """Jinja2's immutable sandbox with sizes bounded: no 'x' * 10**9, no 10 ** 10**9."""

    intercepted_binops = frozenset(["*", "**", "+", "%"])

    UNSAFE_FILTERS = frozenset(["format", "xmlattr", "filesizeformat", "pprint", "urlize"])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        bounded: dict[str, Any] = {}
        for name, fn in self.filters.items():
            if name in self.UNSAFE_FILTERS:
                continue
            bounded[name] = _bounded_filter(fn)
        self.filters = bounded

    def wrap_str_format(self, value: Any) -> Any:
        if getattr(value, "__name__", "") in ("format", "format_map") and isinstance(
            getattr(value, "__self__", None), str
        ):

            def refused(*_args: Any, **_kwargs: Any) -> Any:
                raise ValueError("str.format is not available in templates; join texts with ~")

            return refused
        return None

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        if attr in ("format", "format_map"):
            return False  # str.format reads attributes by name and pads without limit
        return bool(super().is_safe_attribute(obj, attr, value))

    def call(self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        _check_args(args, kwargs)
        return super().call(__context, __obj, *args, **kwargs)

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "%":
            if isinstance(left, str):
                raise ValueError("%-formatting is not available in templates")
            return left % right
        if operator == "**":
            if isinstance(right, int | float) and abs(right) > 100:
                raise ValueError("exponent too large in a template")
            return left**right
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                too_big = (
                    isinstance(seq, str | list | tuple)
                    and isinstance(n, int)
                    and len(seq) * n > MAX_TEMPLATE_VALUE
                )
                if too_big:
                    raise ValueError("a template builds too large a value")
            return left * right
        result = left + right
        if isinstance(result, str | list | tuple) and len(result) > MAX_TEMPLATE_VALUE:
            raise ValueError("a template builds too large a value")
        return result


def sandbox() -> BoundedSandbox:
    return BoundedSandbox(undefined=StrictUndefined, autoescape=False)
