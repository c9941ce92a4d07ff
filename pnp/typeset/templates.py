"""Templates of layout elements: jinja2's immutable sandbox, with the sizes of what a
template may build bounded before it is built (no ``'x' * 10**9``, no ``10 ** 10**9``, no
``str.format``, no ``s.replace`` or ``~`` that multiply a text, no output without end): a size
is checked before the operation that makes it, because the sandbox's time limit cannot stop one
long call into C."""

from __future__ import annotations

from typing import Any

from jinja2 import StrictUndefined
from jinja2.sandbox import ImmutableSandboxedEnvironment

from ..compat.jinja import hooked

MAX_TEMPLATE_VALUE = 10_000  # characters or items a template may build at once
MAX_TEMPLATE_RESULT = MAX_TEMPLATE_VALUE * 10  # characters a filter, method or output may make


def _too_large() -> ValueError:
    return ValueError(f"a template builds a value over {MAX_TEMPLATE_RESULT:,} characters")


def _method_result_size(obj: Any, args: tuple[Any, ...]) -> int:
    """How large a str method's result may be, for the methods whose result can be far larger
    than their arguments (0 for the others)."""
    name = getattr(obj, "__name__", "")
    text = getattr(obj, "__self__", None)
    if not isinstance(text, str):
        return 0
    if name == "replace" and len(args) >= 2 and isinstance(args[0], str):
        old, new = args[0], args[1]
        count = text.count(old) if old else len(text) + 1
        return len(text) + count * len(new) if isinstance(new, str) else 0
    if name == "join" and args:
        items = list(args[0]) if isinstance(args[0], list | tuple) else []
        return sum(len(i) for i in items if isinstance(i, str)) + len(text) * len(items)
    if name == "expandtabs":
        size = args[0] if args and isinstance(args[0], int) else 8
        return len(text) + text.count("\t") * size
    return 0


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
        if isinstance(result, str | list | tuple) and len(result) > MAX_TEMPLATE_RESULT:
            raise _too_large()
        return result

    return bounded


@hooked
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
        if _method_result_size(__obj, args) > MAX_TEMPLATE_RESULT:
            raise _too_large()
        result = super().call(__context, __obj, *args, **kwargs)
        if isinstance(result, str | list | tuple) and len(result) > MAX_TEMPLATE_RESULT:
            raise _too_large()
        return result

    def bounded_join(self, parts: tuple[Any, ...]) -> str:
        """``a ~ b``: the texts joined, refused before joining when too large."""
        texts = [p if isinstance(p, str) else str(p) for p in parts]
        if sum(map(len, texts)) > MAX_TEMPLATE_RESULT:
            raise _too_large()
        return "".join(texts)

    @staticmethod
    def concat(pieces: Any) -> str:
        """A template's whole output, stopped as soon as it is too long."""
        out: list[str] = []
        size = 0
        for piece in pieces:
            size += len(piece)
            if size > MAX_TEMPLATE_RESULT:
                raise _too_large()
            out.append(piece)
        return "".join(out)

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
