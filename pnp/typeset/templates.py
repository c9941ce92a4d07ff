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
    return ValueError(
        f"a template builds a value over {MAX_TEMPLATE_RESULT:,} characters (the limit of one "
        "filter, method, ~ or output)"
    )


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
    if name == "translate" and args and isinstance(args[0], dict):
        longest = max((len(v) for v in args[0].values() if isinstance(v, str)), default=1)
        return len(text) * max(longest, 1)
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


def printed_size(value: Any, limit: int = MAX_TEMPLATE_RESULT) -> int:
    """About how many characters ``value`` prints as (texts nested in lists and mappings
    counted with their separators), worked out without printing it; stops counting past
    ``limit`` (a list may hold one long text ten thousand times, at the cost of one)."""
    total = 0
    stack = [value]
    while stack and total <= limit:
        item = stack.pop()
        if isinstance(item, str):
            total += len(item)
        elif isinstance(item, list | tuple | set | frozenset):
            total += 2 + 2 * len(item)
            stack.extend(item)
        elif isinstance(item, dict):
            total += 2 + 4 * len(item)
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, int | float | bool) or item is None:
            total += 24
        else:
            total += len(_text(item))
    return total


def _text(value: Any) -> str:
    try:
        return str(value)
    except ValueError:  # an int of more digits than Python prints
        return "9" * (MAX_TEMPLATE_RESULT + 1)


def _wrap_size(text: str, width: Any, wrapstring: Any) -> int:
    """At most how long ``wordwrap`` makes ``text``: a line per word, or per ``width``
    characters of a long word, each ending in ``wrapstring``."""
    lines = text.count(" ") + text.count("\n") + len(text) // max(int(width), 1) + 2
    return len(text) + lines * len(wrapstring if isinstance(wrapstring, str) else "\n")


def _filter_size(name: str, value: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    """At most how many characters filter ``name`` makes of ``value`` (0: it makes nothing
    larger than what it is given, or a list of what it is given)."""

    def arg(i: int, key: str, default: Any) -> Any:
        return args[i] if len(args) > i else kwargs.get(key, default)

    if name == "join":
        sep = arg(0, "d", "")
        count = len(value) if isinstance(value, list | tuple) else 0
        items = 0 if arg(1, "attribute", None) is not None else printed_size(value)
        return items + len(_text(sep)) * max(count - 1, 0)
    if name == "sum" and isinstance(value, list | tuple):  # lists or texts added up
        return sum(len(v) for v in value if isinstance(v, str | list | tuple))
    if name in ("indent", "center", "replace", "wordwrap", "truncate"):
        text = _text(value) if not isinstance(value, str) else value
        if name == "indent":
            width = arg(0, "width", 4)
            pad = len(width) if isinstance(width, str) else int(width)
            return len(text) + (text.count("\n") + 1) * pad
        if name == "center":
            return max(len(text), int(arg(0, "width", 80)))
        if name == "replace":
            old, new = _text(arg(0, "old", "")), _text(arg(1, "new", ""))
            times = text.count(old) if old else len(text) + 1
            return len(text) + times * len(new)
        if name == "wordwrap":
            return _wrap_size(text, arg(0, "width", 79), arg(3, "wrapstring", None))
        return int(arg(0, "length", 255)) + len(_text(arg(2, "end", "...")))
    if name in _PRINTING:  # texts made from the whole value: as large as it prints, escaped
        return printed_size(value)
    return 0


# filters that print the whole value: string, JSON, HTML or URL escapes (at most a few times
# the value's own size, so they are bounded by the size of what they print)
_PRINTING = frozenset(
    ["string", "tojson", "e", "escape", "forceescape", "urlencode", "striptags", "title",
     "upper", "lower", "capitalize", "trim"]
)  # fmt: skip


def _bounded_filter(name: str, fn: Any) -> Any:
    """A filter whose result is sized before it is made (:func:`_filter_size`), and measured
    again after (for what no estimate covers)."""
    import functools

    @functools.wraps(fn)
    def bounded(*args: Any, **kwargs: Any) -> Any:
        rest = args[1:] if args else ()
        _check_args(rest, kwargs)
        if getattr(fn, "jinja_pass_arg", None) is not None:  # the context or environment first
            head, value, rest = args[:1], args[1] if len(args) > 1 else None, args[2:]
        else:
            head, value, rest = (), args[0] if args else None, rest
        if name in ("join", "sum") and not isinstance(value, str | list | tuple | dict):
            value = _bounded_list(value)  # a generator: taken once, and counted
        size = _filter_size(name, value, rest, kwargs)
        if size > MAX_TEMPLATE_RESULT:
            raise ValueError(
                f"the filter {name} would make {size:,} characters or items or more; a filter "
                f"may make at most {MAX_TEMPLATE_RESULT:,} (the template limit)"
            )
        result = fn(*head, value, *rest, **kwargs) if args else fn(**kwargs)
        if isinstance(result, str | list | tuple) and len(result) > MAX_TEMPLATE_RESULT:
            raise _too_large()
        return result

    return bounded


def _bounded_list(value: Any) -> Any:
    """The items of an iterable, refused past MAX_TEMPLATE_RESULT of them."""
    if not hasattr(value, "__iter__"):
        return value
    out = []
    for item in value:
        out.append(item)
        if len(out) > MAX_TEMPLATE_RESULT:
            raise ValueError(f"a template filter is given more than {MAX_TEMPLATE_RESULT:,} items")
    return out


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
            bounded[name] = _bounded_filter(name, fn)
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
        size = _method_result_size(__obj, args)
        if size > MAX_TEMPLATE_RESULT:
            raise ValueError(
                f"the method {getattr(__obj, '__name__', '')} would make {size:,} characters or "
                f"more; a method may make at most {MAX_TEMPLATE_RESULT:,} (the template limit)"
            )
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
