"""Keep the translation catalogs in ``flametable/locale`` up to date, with Babel.

    python -m flametable.cli.i18n_tools update    # re-extract flametable.pot, merge it into each
                                                  # <lang>/LC_MESSAGES/flametable.po, compile the .mo
    python -m flametable.cli.i18n_tools compile   # only compile every .po into its .mo

After ``update``, translate the new entries (empty or ``#, fuzzy``) in the .po files, then run ``compile``
and commit the .pot, .po and .mo files (nothing is compiled at run time). ``tests/test_i18n.py`` fails
while an entry is missing, untranslated or fuzzy. Messages are English literals in ``_()``, ``gettext()``,
``ngettext()``, ``pgettext()`` (with a context; also as methods: ``tr.ngettext(...)``), ``N_()`` or
``N_plural()`` (a marked message with plural forms) anywhere under ``src/flametable``: the engines' marks, the
texts of :mod:`flametable.texts` and the interfaces' own words; in the browser client's modules
(``web/static/**.js``), ``_("...")`` calls (and ``data-text`` attributes of index.html are listed in
``js/words.js`` as ``_()`` calls, so that they are extracted too).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from flametable.texts.translator import DOMAIN, LOCALE_DIR

PACKAGE_DIR = LOCALE_DIR.parent
KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    "_": None, "N_": None, "H_": None, "gettext": None, "ngettext": (1, 2), "N_plural": (1, 2),
    "pgettext": ((1, "c"), 2)}
METHOD_MAP = [("**.py", "python"), ("web/static/**.js", "javascript"), ("games/*/static/**.js", "javascript")]
POT = LOCALE_DIR / f"{DOMAIN}.pot"


def extract() -> Catalog:
    """Every message of the package, as a template catalog."""
    catalog = Catalog(project="flametable", charset="utf-8", fuzzy=False,
                      header_comment="# Translation template of flametable (English source strings).\n"
                                     "# Update with: python -m flametable.cli.i18n_tools update\n")
    found = extract_from_dir(str(PACKAGE_DIR), METHOD_MAP, keywords=KEYWORDS, comment_tags=("Translators:",),
                             strip_comment_tags=True)
    for filename, lineno, message, comments, context in found:
        where = f"src/flametable/{Path(filename).as_posix()}"
        catalog.add(message, None, [(where, lineno)], auto_comments=comments, context=context)
    return catalog


def po_files() -> Iterator[tuple[str, Path]]:
    for po in sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        yield po.parent.parent.name, po


def load_po(path: Path, lang: str) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def save_po(path: Path, catalog: Catalog) -> None:
    with path.open("wb") as f:
        write_po(f, catalog, width=100, include_lineno=False, ignore_obsolete=True, sort_by_file=False,
                 omit_header=False)


def compile_all() -> None:
    for lang, po in po_files():
        catalog = load_po(po, lang)
        with po.with_suffix(".mo").open("wb") as f:
            write_mo(f, catalog, use_fuzzy=False)
        print(f"compiled {po.with_suffix('.mo').relative_to(PACKAGE_DIR)}")


def update() -> None:
    template = extract()
    save_po(POT, template)
    print(f"extracted {len(template)} messages into {POT.relative_to(PACKAGE_DIR)}")
    for lang, po in po_files():
        catalog = load_po(po, lang)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        save_po(po, catalog)
        todo = sum(1 for m in catalog if m.id and (not m.string or m.fuzzy or not all(m.string)))
        print(f"updated {po.relative_to(PACKAGE_DIR)}: {todo} to translate or review")
    compile_all()


def main(argv: list[str]) -> int:
    commands = {"update": update, "compile": compile_all}
    if len(argv) != 1 or argv[0] not in commands:
        print(__doc__)
        return 2
    commands[argv[0]]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
