"""Translations: choosing each text's language for a build, gettext catalogs, pnp's own words.

- :mod:`.translator`: the text of each field for a build language, and what fell back;
- :mod:`.catalog`: a game's catalogs (template, init, update, status, reading for builds);
- :mod:`.words`: pnp's own words on the sheets and in the terminal.
"""

from .translator import Translator

__all__ = ["Translator"]
