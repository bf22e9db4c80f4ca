"""What is wrong with a JSON text, as a translatable phrase: the standard library's parser says it in English
(``Expecting value``), and a player reads it in their language."""

from __future__ import annotations

import json

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


def json_problem(exc: json.JSONDecodeError) -> Phrase:
    """The parser's message as a phrase to translate (any message it may add later: a general one)."""
    return Phrase(JSON_PROBLEMS.get(exc.msg, OTHER))
