"""The motive predicates P_M(v, S) (rules section 2.4), read from a JSON file: the published
game's predicates are unknown, so the defaults (unofficial fan code) ship as data in
`motives.json`, and option `predicates_file` reads a table of the same format instead
(section 8, "predicates: fan code / file").

The file is an object with an `about` text and `motives`: for each of the 8 motives, a list
of tests a legal victim v must all pass, read on the snapshot S at the murder (H is the list of
earlier ordinary victims). The tests:

- `{"test": "victim", "is": "alone" | "intimidated" | "central", "value": true | false}`:
  v stands alone in his district / is intimidated / is in a central district, or not;
- `{"test": "attribute", "attribute": A, "in": [...]}` (or `"not_in"`): v's attribute A
  (sex, age, build, height, group, profession) is one of the values, or none of them;
- `{"test": "distinct", "attribute": A, "at_most": n}`: the residents of H and v show at most
  n distinct values of A;
- `{"test": "same_as_first", "attribute": A}`: H is empty, or v's A is that of H's first;
- `{"test": "shared", "attribute": A, "at_most": n}`: at most n residents of H share v's A.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from engines.city_killer.material import GROUPS, LOOKS, MOTIVES, Scene
from engines.errors import ConfigError
from engines.values import JsonValue

DEFAULT = Path(__file__).with_name("motives.json")
"""The fan-code predicates, the default of option `predicates_file`."""
ATTRIBUTES = (*LOOKS, "group", "profession")
FLAGS = ("alone", "intimidated", "central")
_KEYS: dict[str, tuple[str, ...]] = {
    "victim": ("test", "is", "value"),
    "attribute": ("test", "attribute", "in|not_in"),
    "distinct": ("test", "attribute", "at_most"),
    "same_as_first": ("test", "attribute"),
    "shared": ("test", "attribute", "at_most"),
}


class Test(ABC):
    """One test of a motive's predicate (the module docstring lists the kinds)."""

    @abstractmethod
    def passes(self, scene: Scene) -> bool:
        """Whether the victim of `scene` passes it."""


@dataclass(frozen=True)
class VictimFlag(Test):
    """`{"test": "victim", ...}`: the victim stands alone, is intimidated, or stands in a
    central district (`flag`), or not (`value` false)."""

    flag: str
    value: bool

    def passes(self, scene: Scene) -> bool:
        return bool(getattr(scene, self.flag)) == self.value


@dataclass(frozen=True)
class AttributeIn(Test):
    """`{"test": "attribute", ...}`: the victim's attribute is one of `values` (or, negated,
    none of them)."""

    attribute: str
    values: frozenset[str]
    negated: bool

    def passes(self, scene: Scene) -> bool:
        return (scene.victim.attribute(self.attribute) in self.values) != self.negated


@dataclass(frozen=True)
class Distinct(Test):
    """`{"test": "distinct", ...}`: the earlier victims and this one show at most `at_most`
    distinct values of the attribute."""

    attribute: str
    at_most: int

    def passes(self, scene: Scene) -> bool:
        mine = scene.victim.attribute(self.attribute)
        return len({x.attribute(self.attribute) for x in scene.history} | {mine}) <= self.at_most


@dataclass(frozen=True)
class SameAsFirst(Test):
    """`{"test": "same_as_first", ...}`: no earlier victim, or the first one's attribute is
    this one's."""

    attribute: str

    def passes(self, scene: Scene) -> bool:
        first = scene.history[0] if scene.history else None
        mine = scene.victim.attribute(self.attribute)
        return first is None or first.attribute(self.attribute) == mine


@dataclass(frozen=True)
class Shared(Test):
    """`{"test": "shared", ...}`: at most `at_most` earlier victims share this one's
    attribute."""

    attribute: str
    at_most: int

    def passes(self, scene: Scene) -> bool:
        mine = scene.victim.attribute(self.attribute)
        return sum(x.attribute(self.attribute) == mine for x in scene.history) <= self.at_most


@dataclass(frozen=True)
class Predicates:
    """P_M for each motive: the tests a legal victim passes, all of them."""

    tests: Mapping[str, tuple[Test, ...]]

    def fits(self, motive: str, scene: Scene) -> bool:
        """Whether a killer with `motive` may kill `scene.victim`."""
        return all(test.passes(scene) for test in self.tests[motive])

    def fitting(self, scene: Scene) -> frozenset[str]:
        """The motives whose killer may kill `scene.victim`."""
        return frozenset(m for m in MOTIVES if self.fits(m, scene))


def read_predicates(path: str | Path | None = None) -> Predicates:
    """The predicates of the file at `path` (None: the shipped fan-code defaults).

    Raises:
        ConfigError: the file cannot be read, is not JSON, or a motive or test is wrong; the
            message names it and what is allowed.
    """
    where = f"city-killer: option 'predicates_file' ({path})"
    try:
        data = json.loads(Path(path or DEFAULT).read_text(encoding="utf-8"))
    except OSError as error:
        raise ConfigError(f"{where} cannot be read: {error.strerror}") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise ConfigError(f"{where} is not JSON: {error}") from None
    if not isinstance(data, dict) or set(data) - {"about"} != {"motives"}:
        raise ConfigError(f"{where} must be an object with 'motives' (and 'about', a text)")
    motives = data["motives"]
    if not isinstance(motives, dict) or sorted(motives) != sorted(MOTIVES):
        raise ConfigError(f"{where}: 'motives' must give exactly {', '.join(MOTIVES)}")
    tests: dict[str, tuple[Test, ...]] = {}
    for motive in MOTIVES:
        listed = motives[motive]
        if not isinstance(listed, list):
            raise ConfigError(f"{where}: motive {motive!r} must be a list of tests")
        at = f"{where}: motive {motive!r}, test"
        tests[motive] = tuple(_test(item, f"{at} {i + 1}") for i, item in enumerate(listed))
    return Predicates(tests)


def _test(item: JsonValue, at: str) -> Test:
    kinds = ", ".join(_KEYS)
    if not isinstance(item, dict) or item.get("test") not in _KEYS:
        raise ConfigError(f"{at} must be an object whose 'test' is one of {kinds}")
    kind = str(item["test"])
    keys = [k for k in _KEYS[kind] if "|" not in k]
    either = [k for k in _KEYS[kind] if "|" in k]
    wanted = keys + (either[0].split("|") if either else [])
    given = sorted(item)
    if not set(keys) <= set(given) <= set(wanted) or (either and len(given) != len(keys) + 1):
        shown = ", ".join(keys + either)
        raise ConfigError(f"{at}: a {kind!r} test has exactly the keys {shown}")
    return _TESTS[kind](item, at)


def _victim_test(item: dict[str, JsonValue], at: str) -> Test:
    if item["is"] not in FLAGS or not isinstance(item["value"], bool):
        raise ConfigError(f"{at}: 'is' is one of {', '.join(FLAGS)}, 'value' true or false")
    return VictimFlag(str(item["is"]), item["value"])


def _attribute_in(item: dict[str, JsonValue], attribute: str, at: str) -> Test:
    key = "in" if "in" in item else "not_in"
    values = item[key]
    known = {**LOOKS, "group": GROUPS}.get(attribute)
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ConfigError(f"{at}: {key!r} must be a list of {attribute} values")
    if known is not None and not set(values) <= set(known):
        raise ConfigError(f"{at}: {attribute} is one of {', '.join(known)}")
    return AttributeIn(attribute, frozenset(map(str, values)), negated=key == "not_in")


def _at_most(item: dict[str, JsonValue], at: str) -> int:
    at_most = item["at_most"]
    if type(at_most) is not int or at_most < 0:
        raise ConfigError(f"{at}: 'at_most' must be a whole number, 0 or more")
    return at_most


def _on_attribute(
    read: Callable[[dict[str, JsonValue], str, str], Test],
) -> Callable[[dict[str, JsonValue], str], Test]:
    """`read` for a test on the victim's attribute, once the attribute is checked."""

    def checked(item: dict[str, JsonValue], at: str) -> Test:
        attribute = item["attribute"]
        if attribute not in ATTRIBUTES:
            raise ConfigError(f"{at}: 'attribute' is one of {', '.join(ATTRIBUTES)}")
        return read(item, str(attribute), at)

    return checked


_TESTS: dict[str, Callable[[dict[str, JsonValue], str], Test]] = {
    "victim": _victim_test,
    "attribute": _on_attribute(_attribute_in),
    "distinct": _on_attribute(lambda item, attribute, at: Distinct(attribute, _at_most(item, at))),
    "same_as_first": _on_attribute(lambda item, attribute, at: SameAsFirst(attribute)),
    "shared": _on_attribute(lambda item, attribute, at: Shared(attribute, _at_most(item, at))),
}
"""How each kind of test is read, once its keys are checked."""


FAN_CODE = read_predicates()
"""The shipped defaults, read once."""
