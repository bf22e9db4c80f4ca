"""What is wrong with a JSON or TOML text, as a translatable phrase: the standard library's parsers say it in
English (``Expecting value``, ``Unclosed array``), and a player reads it in their language."""

from __future__ import annotations

import json
import re
import tomllib

from flametable.core.i18n import N_, Phrase

# The parser's messages (``JSONDecodeError.msg``) and what they mean for a reader.
JSON_PROBLEMS = {
    "Expecting value": N_("a value was expected"),
    "Expecting property name enclosed in double quotes": N_("a name in double quotes was expected"),
    "Expecting ',' delimiter": N_("a comma was expected"),
    "Expecting ':' delimiter": N_("a colon was expected"),
    "Unterminated string starting at": N_("a text in quotes is not closed"),
    "Invalid control character at": N_("a control character inside a text in quotes"),
    "Invalid \\escape": N_("a bad escape (\\) inside a text in quotes"),
    "Invalid \\uXXXX escape": N_("a bad \\u escape inside a text in quotes"),
    "Extra data": N_("more text after the end of the value"),
    "Illegal trailing comma before end of object": N_("a comma before the end of an object"),
    "Illegal trailing comma before end of array": N_("a comma before the end of a list"),
}
OTHER = N_("the text is not JSON")

# The beginnings of tomllib's messages (``str(TOMLDecodeError)``, before `` (at ...)``; some go on with a key or
# a character) and what they mean for a reader; a longer beginning is tried before a shorter one.
TOML_PROBLEMS = {
    "Invalid statement": N_("a line that is neither key = value nor a [table] heading"),
    "Invalid value": N_("a value was expected"),
    "Invalid initial character for a key part": N_("a key was expected"),
    "Invalid date or datetime": N_("a date or time that does not exist"),
    "Invalid hex value": N_("a bad \\u or \\U escape inside a text in quotes"),
    "Expected newline or end of document after a statement": N_("the line goes on after its value"),
    "Expected '=' after a key in a key/value pair": N_("an = was expected after the key"),
    "Expected ']' at the end of a table declaration": N_("a ] was expected at the end of the table's heading"),
    "Expected ']]' at the end of an array declaration": N_("a ]] was expected at the end of the heading"),
    "Expected ": N_("a text in quotes is not closed"),  # the end of a multi-line string or a literal string
    "Found invalid character": N_("a control character inside a text in quotes or a comment"),
    "Illegal character": N_("a control character inside a text in quotes"),
    "Unescaped '\\' in a string": N_("a bad escape (\\) inside a text in quotes"),
    "Escaped character is not a Unicode scalar value": N_("a \\u or \\U escape that is no character"),
    "Unterminated string": N_("a text in quotes is not closed"),
    "Unclosed array": N_("a list is not closed"),
    "Unclosed inline table": N_("a table between braces is not closed"),
    "Cannot declare": N_("a table is declared twice"),
    "Cannot overwrite a value": N_("a key is given a value twice"),
    "Cannot redefine namespace": N_("a table is declared again"),
    "Cannot mutate immutable namespace": N_("a table or list written in one piece is added to later"),
    "Duplicate inline table key": N_("a key is there twice inside braces"),
}
TOML_OTHER = N_("the text is not TOML")
_TOML_BEGINNINGS = sorted(TOML_PROBLEMS, key=len, reverse=True)
_TOML_AT = re.compile(r" \(at (?:line (\d+), column (\d+)|end of document)\)$")


def json_problem(exc: json.JSONDecodeError) -> Phrase:
    """The parser's message as a phrase to translate (any message it may add later: a general one)."""
    return Phrase(JSON_PROBLEMS.get(exc.msg, OTHER))


def toml_problem(exc: tomllib.TOMLDecodeError) -> Phrase:
    """tomllib's message as a phrase to translate (any message it may add later: a general one)."""
    message = _TOML_AT.sub("", str(exc))
    known = next((b for b in _TOML_BEGINNINGS if message.startswith(b)), None)
    return Phrase(TOML_OTHER if known is None else TOML_PROBLEMS[known])


def toml_position(exc: tomllib.TOMLDecodeError, text: str) -> tuple[int, int]:
    """Where tomllib found the problem: its line and column (counted from 1); ``at end of document``, where the
    text ends (the line after a last line break)."""
    at = _TOML_AT.search(str(exc))
    if at is not None and at.group(1) is not None:
        return int(at.group(1)), int(at.group(2))
    return text.count("\n") + 1, len(text) - text.rfind("\n")
