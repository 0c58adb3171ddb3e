"""A pool of residents read from a JSON file (option `pool_file`, rules section 8 "Pool:
synthetic / data file"): the real cards are not published, so a user may type in his own.

The file is a list of residents, each an object with a one-word `name` and the attributes of
section 2.2: `sex`, `age`, `build`, `height`, `group` (values of the synthetic pool, so the
questions and the motive predicates read them unchanged) and a one-word `profession`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from engines.city_killer.material import GROUPS, LOOKS, Resident
from engines.errors import ConfigError

FIELDS = ("name", "sex", "age", "build", "height", "group", "profession")
EXAMPLE = Path(__file__).with_name("example_pool.json")
"""A small pool of 12 residents shipped as an example of the format."""
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


def read_pool(path: str) -> tuple[Resident, ...]:
    """The residents of the file at `path`, cards numbered from 1 in file order."""
    where = f"city-killer: option 'pool_file' ({path})"
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise ConfigError(f"{where} cannot be read: {error.strerror}") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise ConfigError(f"{where} is not JSON: {error}") from None
    if not isinstance(data, list) or not 4 <= len(data) <= 54:
        raise ConfigError(f"{where} must hold a list of 4 to 54 residents")
    allowed = {**LOOKS, "group": GROUPS}
    residents, seen = [], set()
    for i, item in enumerate(data):
        at = f"{where}: resident {i + 1}"
        if not isinstance(item, dict) or sorted(item) != sorted(FIELDS):
            raise ConfigError(f"{at} must be an object with exactly {', '.join(FIELDS)}")
        for key in ("name", "profession"):
            if not isinstance(item[key], str) or not _WORD.fullmatch(item[key]):
                raise ConfigError(f"{at}: {key} must be one word of letters, ' or -")
        for key, values in allowed.items():
            if item[key] not in values:
                raise ConfigError(f"{at}: {key} {item[key]!r} is not one of {', '.join(values)}")
        if item["name"].lower() in seen:
            raise ConfigError(f"{at}: the name {item['name']!r} is used twice (case ignored)")
        seen.add(item["name"].lower())
        residents.append(
            Resident(
                i + 1, item["name"], item["sex"], item["age"], item["build"], item["height"],
                item["group"], item["profession"].lower(),
            )
        )  # fmt: skip
    return tuple(residents)
