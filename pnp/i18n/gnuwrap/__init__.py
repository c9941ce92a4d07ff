"""Line layout of PO string fields and ``#:`` lines, exactly as GNU gettext 0.21 writes them.

``msgcat``, ``msgmerge`` and the other GNU tools rewrite every PO file they touch with their own
layout (``write-po.c``). pnp writes the same layout, so that a file pnp wrote comes back
byte-identical from a GNU tool and a hand-off through one is not a diff of every wrapped string.

How GNU lays out ``keyword "value"``:

* The value is cut into portions, each ending just after an embedded newline, and each portion
  is escaped (``\\\\ \\" \\n \\t \\r \\a \\b \\f \\v``; everything else is written raw).
* Break opportunities are found in the *escaped* portion by libunistring's line breaking
  (Unicode UAX #14 as libunistring 1.0 implements it: a pair table plus a few rules that look
  further back), then two kinds are taken away: inside an escape sequence, and just before the
  ``\\n`` that ends a portion.
* A greedy fill cuts the portion into pieces at the opportunities and breaks the line before a
  piece that would end past the width: 79 columns less the prefix, both quotes and, on the
  first line, ``keyword ``. A piece wider than a line stays whole. Columns are display columns:
  East Asian wide characters count 2, combining marks 0.
* When a value has more than one portion, or its first portion would need a break after
  ``keyword "``, GNU writes ``keyword ""`` and starts the text on the next line.

The line-break classes and widths of all code points come from libunistring 1.0 itself, in
``pnp/data/linebreak.txt`` (that file says how it was made); the pair table is in
:mod:`.classes`. Three ways to the same layout, the quickest that applies:

* Text of one-column characters below U+3000 without combining marks, joiners and the like
  (nearly all Latin, Greek, Cyrillic, Hebrew and Arabic text): per line, one regular expression
  run on the text finds the last break opportunity that still fits. No per-character work.
* Other text without those classes (CJK, most emoji): the same regular expressions, run on the
  string of the characters' class codes (one ``str.translate``), with display widths summed.
* Text with combining marks, zero-width (non-)joiners and spaces, regional indicators (flags)
  or line separators: a walk over its characters that follows libunistring's rules one by one,
  about ten times slower.

Format directives: GNU does not break inside a format directive of an entry flagged
``*-format``. Directives seldom hold a break opportunity (``% d`` with its space flag does), and
which spans gettext 0.21 takes for directives is its parsers' business (its python-brace parser
marks them at the wrong place), so they are not found here: pass them in ``keep``.

The modules: :mod:`.fields` (a field's lines), :mod:`.portion` (one portion: escaping, its
break opportunities, the fill), :mod:`.tables` (the classes of all code points and the regular
expressions built from them), :mod:`.classes` (the classes, the pair table, the rule-by-rule
walk), :mod:`.references` (``#:`` lines).
"""

from .fields import field_lines
from .portion import escape
from .references import reference_lines

__all__ = ["escape", "field_lines", "reference_lines"]
