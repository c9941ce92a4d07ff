"""A sample for right-to-left tests: some texts of the FABG pack in Arabic and Hebrew.

Written for the tests (our own words, not a translation to ship): the game's title, the setup
sheet's title and intro, the Roles deck and two of its cards, the Dentist event and the roles
table. :func:`make_root` copies the bundled pack into a content root that declares ``ar`` and
``he`` and fills their catalogs with these; every other text falls back to the source.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

ARABIC = {
    "title": "لعبة اللوحة المؤتمتة بالكامل",
    "setup_sheet/title": "التحضير",
    "setup_sheet/intro": (
        "قواعد 2-4 و5-10 لاعبات مختلفة جدًا: استخدمن الوجه الصحيح لبطاقات المرحلة والروبوت.\n\n"
        "**5-10:** وزّعن بطاقات الأدوار مقلوبة كما يبيّن الجدول؛ تكشف الرئيستان دوريهما. "
        "**2-4:** رئيسة آلية في الوسط وبطاقة Prolet مكشوفة لكل لاعبة؛ حضّرن رزمة "
        "الأحداث حسب الجدول."
    ),
    "decks/roles/name": "الأدوار",
    "decks/roles/back/title": "دور",
    "decks/roles/cards/boss/title": "الرئيسة",
    "decks/roles/cards/boss/subtitle": "البرجوازية",
    "decks/roles/cards/boss/text": (
        "**5-10:** تفوزين حين تجمعين عملات الجدول ({tables.victory.5.coins} {coin} مع 5 لاعبات، "
        "حتى {tables.victory.10.coins} {coin} "
        "مع 10). تبدئين بـ 10 {coin}. إن عجزتِ عن دفع الإيجار أو عن روبوت الإضراب "
        "تُقصين: الرئيسة الأخرى تنال **الاحتكار**.\n\n"
        "**2-4:** الرئيسة آلية ولا تلعب: تقبض الإيجار وتشتري الروبوتات."
    ),
    "decks/roles/cards/prolet/title": "Prolet",
    "decks/roles/cards/prolet/subtitle": "معدمة",
    "decks/events/cards/dentist/title": "طبيب الأسنان",
    "decks/events/cards/dentist/text": (
        "لاعبة تدفع 2 {coin} أو تصبح مرهقة.\n\n"
        "إن لم تملك أي لاعبة 2 {coin} وكانت الجميع مرهقات، تجاهلن هذه البطاقة."
    ),
    "tables/roles/title": "الأدوار مع 5-10 لاعبات",
    "tables/roles/columns/players/title": "اللاعبات",
    "tables/roles/columns/boss/title": "الرئيسة",
    "tables/roles/columns/prolet/title": "Prolet",
}

HEBREW = {
    "title": "משחק הלוח האוטומטי לגמרי",
    "setup_sheet/title": "הכנה",
    "setup_sheet/intro": (
        "הכללים ל-2-4 ול-5-10 שחקניות שונים מאוד: השתמשו בצד הנכון של קלפי השלב "
        "והרובוט.\n\n"
        "**5-10:** חלקו קלפי תפקיד הפוכים לפי הטבלה; שתי הבוסיות חושפות את תפקידן. "
        "**2-4:** בוסית אוטומטית במרכז וקלף Prolet גלוי לכל שחקנית; הכינו את חפיסת "
        "האירועים לפי הטבלה."
    ),
    "decks/roles/name": "תפקידים",
    "decks/roles/back/title": "תפקיד",
    "decks/roles/cards/boss/title": "בוסית",
    "decks/roles/cards/boss/subtitle": "בורגנות",
    "decks/roles/cards/boss/text": (
        "**5-10:** את מנצחת כשיש לך המטבעות שבטבלה ({tables.victory.5.coins} {coin} עם 5 שחקניות, "
        "עד {tables.victory.10.coins} {coin} "
        "עם 10). את מתחילה עם 10 {coin}. אם אינך יכולה לשלם שכירות או רובוט של שביתה, "
        "את יוצאת: לבוסית השנייה יש **מונופול**.\n\n"
        "**2-4:** הבוסית אוטומטית ואינה משחקת: היא גובה שכירות וקונה רובוטים."
    ),
    "decks/roles/cards/prolet/title": "Prolet",
    "decks/roles/cards/prolet/subtitle": "חסרת רכוש",
    "decks/events/cards/dentist/title": "רופא שיניים",
    "decks/events/cards/dentist/text": (
        "שחקנית אחת משלמת 2 {coin} או נעשית לחוצה.\n\n"
        "אם לאף אחת אין 2 {coin} וכולן כבר לחוצות, התעלמו מהקלף הזה."
    ),
    "tables/roles/title": "תפקידים עם 5-10 שחקניות",
    "tables/roles/columns/players/title": "שחקניות",
    "tables/roles/columns/boss/title": "בוסית",
    "tables/roles/columns/prolet/title": "Prolet",
}


def make_root(tmp: Path) -> Path:
    """A content root with the FABG pack in it, in ar and he besides it and en."""
    import polib

    root = tmp / "root"
    (root / "cards").mkdir(parents=True)
    shutil.copytree(REPO / "cards" / "fabg", root / "cards" / "fabg")
    game = root / "cards" / "fabg" / "game.yaml"
    text = game.read_text("utf-8")
    game.write_text(text.replace("languages: [it, en]", "languages: [it, en, ar, he]"), "utf-8")
    for lang, texts in (("ar", ARABIC), ("he", HEBREW)):
        subprocess.run(
            [sys.executable, "-m", "pnp", "i18n", "init", "fabg", lang, "--root", str(root)],
            check=True,
            capture_output=True,
        )
        path = root / "locales" / lang / "LC_MESSAGES" / "fabg.po"
        po = polib.pofile(str(path))
        for entry in po:
            if entry.msgctxt in texts:
                entry.msgstr = texts[entry.msgctxt]
        po.save(str(path))
    return root
