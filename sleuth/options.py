"""Game options as a person types them after `-o`, and as `sleuth games` shows them.

One spelling is shown (JSON's: `true`, `null`, bare words), and both JSON and Python
spellings are read (`true`/`True`, `null`/`None`, `'random'`/`"random"`/`random`), so that
what the table shows, what an error message quotes and what a Python user would write all work.
"""

from __future__ import annotations

import ast
import json
import re

from engines.values import JsonValue

_PYTHON_WORDS = {"True": True, "False": False, "None": None}


def read_value(raw: str) -> JsonValue:
    """The value of `-o KEY=VALUE`: JSON or a Python literal when it is one, else the text.

    >>> read_value("true"), read_value("True"), read_value("None"), read_value("'random'")
    (True, True, None, 'random')
    >>> read_value("random"), read_value("7"), read_value('"7"')
    ('random', 7, '7')
    """
    text = raw.strip()
    if text in _PYTHON_WORDS:
        return _PYTHON_WORDS[text]
    try:
        value: JsonValue = json.loads(text)
        return value
    except json.JSONDecodeError:
        pass
    try:
        literal = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return raw
    if isinstance(literal, tuple):
        literal = list(literal)
    if literal is None or isinstance(literal, bool | int | float | str | list):
        return literal
    return raw


def show_value(value: JsonValue) -> str:
    """`value` the way `-o` takes it back: true, null, 7, random (a word bare when it reads
    back as itself, quoted otherwise), lists as JSON.

    >>> [show_value(v) for v in (True, None, 7, "random", "7", ("a", 1))]
    ['true', 'null', '7', 'random', '"7"', '["a", 1]']
    """
    if isinstance(value, str):
        return value if read_value(value) == value and value.strip() == value else json.dumps(value)
    if isinstance(value, tuple):
        value = list(value)
    return json.dumps(value)


_QUOTED = re.compile(r"'([^']*)'")
_WORDS = re.compile(r"\b(True|False|None)\b")


def show_allowed(text: str) -> str:
    """A game's description of its allowed values ("'random' or a seat number", "True or
    False") in the spelling `-o` shows."""
    text = _QUOTED.sub(lambda m: show_value(m.group(1)), text)
    return _WORDS.sub(lambda m: show_value(_PYTHON_WORDS[m.group(1)]), text)
