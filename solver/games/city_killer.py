"""City Killer's knowledge model (rules/city_killer.md, section 7): the killer's identity K,
motive M, allied group G and figurant F, from the public record.

Both seats get the same model: the detective's posterior, built from public observations
alone (the detective's own evidence tokens and blind cards say nothing of K, M, G, F). For the
killer it is what the detective can know right now, so he sees how exposed he is.

Constraints, each tagged with its observation:
- C1 a murder or a Bomb: K is none of the dead;
- C2 a murder: M is a motive whose predicate the victim fits (the snapshot in the record);
- C3 an answer (r, Q, a): r lies (r = K, r = F or group(r) = G) or Q(K) = a;
- C4 surveillance (r, a): a = (K != r and M fits r and r unprotected), no liar exception;
- C5 Profile naming n: M != n; C6 Confession naming g: F is in group g;
- C7 a group token drawn from the stack: G is not that group;
- the rules: F != K; F is none exactly when the game has no figurant.

The worlds are at most 20 * 8 * 9 * 21, so they are enumerated exactly as a numpy tensor of
weights over (K, M, G, F): under the liar model `free` a consistent world weighs 1; under
`random` each liar's answer halves its weight (a liar says yes or no at random). The ally
prior `strategic` weighs G by how likely the killer was to keep it (`ally_weights`). Certain
and possible facts are the same under every model; only probabilities differ. CP-SAT (through
the shared `Model`) explains certainties with minimal sets of observations.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from engines.city_killer import CityKiller, CityKillerState
from engines.city_killer import observations as seen
from engines.city_killer.course import Course
from engines.city_killer.frames import AnswerQuestion, FinalAccusation, KillerTurn
from engines.city_killer.material import CENTRAL, GROUPS, MOTIVES, SEATS, Resident, Scene, questions
from engines.errors import ConfigError, IncompleteInformationSet, InvalidInformationSet
from engines.observations import InformationSet, Observation
from engines.state import State
from engines.values import JsonValue, Seat, quote
from solver.hints import Answer, Hint, percent
from solver.model import Clause, Constraint, Fact, Lit, Model, Var, World, member
from solver.opponent_models import ModelledWorlds
from solver.sampling import EnumeratedWorlds

if TYPE_CHECKING:
    from solver.cpsat import Compiled
    from solver.deduction import Deduction

K, M, G, F = "K", "M", "G", "F"
VARS = (K, M, G, F)
NONE = "none"
ANSWER_KINDS = frozenset({"killer", "motive"})
MODEL_HINTS = True
"""The detective's hints read any deduction's odds, counted or weighed by an opponent model of
the killer (`solver.hints(info, model=...)`): `posterior_of` reads either. The killer's read
the detective's counted view, which no model applies to (`own_posterior`)."""
"""The facts that make up the hidden answer (whose odds moving is news)."""
CPSAT_PARAMETERS = {"cp_model_presolve": False, "symmetry_level": 0}
"""These models are a few dozen clauses over 70 literals: presolve and symmetry detection cost
more than the search (a solve takes about 1 ms without them, 6 ms with)."""


# --- the record ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Record:
    """What the model reads of an information set: the residents and the tagged evidence."""

    residents: tuple[str, ...]
    people: tuple[Resident, ...]  # their cards, in the same order
    figurant: bool
    liar_model: str
    ally_prior: str
    scope: str
    murders: tuple[tuple[int, str, frozenset[str]], ...]  # (source, victim, motives fitting)
    dead: tuple[tuple[int, str], ...]  # (source, a resident killed)
    answers: tuple[tuple[int, str, str, str, bool], ...]  # (source, r, attr, value, answer)
    watches: tuple[tuple[int, str, bool, frozenset[str], bool], ...]  # r, blocked, fit, answer
    profiles: tuple[tuple[int, str], ...]
    confessions: tuple[tuple[int, str | None], ...]
    tokens: tuple[tuple[int, str], ...]


def _scene(card: Callable[[str], Resident], victim: str, alone: bool, intimidated: bool,
           district: Sequence[int], history: Sequence[str]) -> Scene:  # fmt: skip
    return Scene(
        card(victim),
        alone,
        intimidated,
        (district[0], district[1]) in CENTRAL,
        tuple(card(x) for x in history),
    )


def record(info: InformationSet) -> Record:
    """The evidence of `info` (validated), read once per information set (the same object
    is found without hashing its observations again)."""
    for kept_info, found in _RECORDS:
        if kept_info is info:
            return found
    found = _record(info)
    _RECORDS.insert(0, (info, found))
    del _RECORDS[8:]
    return found


_RECORDS: list[tuple[InformationSet, Record]] = []  # the latest first


@lru_cache(maxsize=16)
def _record(info: InformationSet) -> Record:
    options = dict(info.options)
    murders, dead, answers, watches, profiles, confessions, tokens = [], [], [], [], [], [], []
    game = CityKiller.of(info)
    card, fitting = game.resident, game.predicates.fitting
    setup = info.observations[0]
    assert isinstance(setup, seen.CitySetup)
    residents = tuple(setup.residents)
    for i, obs in enumerate(info.observations):
        match obs:
            case seen.Murder(victim=victim):
                scene = _scene(card, victim, obs.alone, obs.intimidated, obs.district, obs.history)
                murders.append((i, victim, fitting(scene)))
                dead.append((i, victim))
            case seen.Bomb(casualties=casualties):
                dead += [(i, name) for name in casualties]
            case seen.Answered(answer=answer) if answer is not None:
                answers.append((i, obs.name, obs.attr, obs.value, answer))
            case seen.Surveillance(name=name):
                scene = _scene(card, name, obs.alone, obs.intimidated, obs.district, obs.history)
                watches.append((i, name, obs.blocked, fitting(scene), obs.answer))
            case seen.Profile(named=named):
                profiles.append((i, named))
            case seen.Confession(group=group):
                confessions.append((i, group))
            case seen.GroupToken(group=group):
                tokens.append((i, group))
    return Record(
        residents, tuple(card(n) for n in residents), bool(options["use_figurant"]),
        str(options["liar_model"]), str(options["ally_prior"]),
        str(options["surveillance_scope"]), tuple(murders),
        tuple(dead), tuple(answers), tuple(watches), tuple(profiles), tuple(confessions),
        tuple(tokens),
    )  # fmt: skip


def matches(people: Sequence[Resident], attr: str, value: str) -> np.ndarray:
    """Q(x) for each resident x: whether "is the killer <value>?" is true of x."""
    return np.array([x.attribute(attr) == value for x in people])


# --- the tensor ----------------------------------------------------------------------------------
@dataclass
class Tensor:
    """Weights over (K, M, G, F): axis 3 holds the residents then "none"."""

    residents: tuple[str, ...]
    people: tuple[Resident, ...]
    weights: np.ndarray

    def normalised(self) -> np.ndarray:
        return self.weights / self.weights.sum()


def liar_mask(people: Sequence[Resident], r: str) -> np.ndarray:
    """liar(r) over (K, M, G, F), broadcastable: r = K, r = F or group(r) = G."""
    n = len(people)
    i = [x.name for x in people].index(r)
    k = np.zeros((n, 1, 1, 1), bool)
    k[i] = True
    g = np.zeros((1, 1, len(GROUPS), 1), bool)
    g[0, 0, GROUPS.index(people[i].group)] = True
    f = np.zeros((1, 1, 1, n + 1), bool)
    f[..., i] = True
    return k | g | f


def factors(rec: Record, liar_model: str | None = None) -> list[tuple[int | None, np.ndarray]]:
    """Each constraint as a weight factor over (K, M, G, F), broadcastable, with its source
    (None for the rules): 0 excludes a world, 1 keeps it, 0.5 is a liar's answer (liar model
    "random"; under "free" a liar's answer keeps the world whole). The latest few are kept:
    a hint refresh explains several facts from the same record (callers must not change
    them)."""
    model = liar_model or rec.liar_model
    for kept_rec, kept_model, found in _FACTORS:
        if kept_rec is rec and kept_model == model:
            return found
    found = _factors(rec, model)
    _FACTORS.insert(0, (rec, model, found))
    del _FACTORS[4:]
    return found


_FACTORS: list[tuple[Record, str, list[tuple[int | None, np.ndarray]]]] = []


def _factors(rec: Record, model: str) -> list[tuple[int | None, np.ndarray]]:
    names, n = rec.residents, len(rec.residents)
    index = {name: i for i, name in enumerate(names)}
    rules = np.ones((n, 1, 1, n + 1))
    rules[np.arange(n), 0, 0, np.arange(n)] = 0.0  # F != K
    if rec.figurant:
        rules[..., n] = 0.0
    else:
        rules[..., :n] = 0.0
    found: list[tuple[int | None, np.ndarray]] = [(None, rules)]
    if rec.ally_prior == "strategic":
        revealed = frozenset(group for _, group in rec.tokens)
        found.append((None, ally_weights(rec.people, revealed).reshape(1, 1, -1, 1)))
    for source, name in rec.dead:
        dead = np.ones((n, 1, 1, 1))
        dead[index[name]] = 0.0
        found.append((source, dead))
    for source, _, fit in rec.murders:
        found.append((source, _motives(fit)))
    for source, name, attr, value, answer in rec.answers:
        liar = liar_mask(rec.people, name)
        honest_ok = (matches(rec.people, attr, value) == answer).reshape(n, 1, 1, 1)
        found.append((source, np.where(liar, 0.5 if model == "random" else 1.0, honest_ok)))
    for source, name, blocked, fit, answer in rec.watches:
        not_k = np.ones((n, 1, 1, 1), bool)
        not_k[index[name]] = False
        legal = not_k & (_motives(fit) > 0) & (not blocked or rec.scope != "full")
        found.append((source, (legal == answer).astype(float)))
    for source, named in rec.profiles:
        found.append((source, _motives(frozenset(MOTIVES) - {named})))
    for source, group in rec.confessions:
        keep = np.array([x.group == group for x in rec.people] + [group is None])
        found.append((source, keep.reshape(1, 1, 1, -1).astype(float)))
    for source, group in rec.tokens:
        other = np.array([g != group for g in GROUPS], float)
        found.append((source, other.reshape(1, 1, -1, 1)))
    return found


def ally_weights(people: Sequence[Resident], revealed: frozenset[str]) -> np.ndarray:
    """The strategic ally prior over G, given the stack tokens seen (rules section 7, option
    `ally_prior`): the killer drew 3 of the 9 tokens uniformly, none of them since seen in the
    stack, and kept each drawn group in proportion to 1 + its residents in play (allies are
    residents who may lie for him, so he leans to the larger groups; the 1 keeps every drawn
    group possible, so certainties are those of the uniform prior)."""
    appeal = {g: 1.0 + sum(x.group == g for x in people) for g in GROUPS}
    weights = dict.fromkeys(GROUPS, 0.0)
    for drawn in combinations([g for g in GROUPS if g not in revealed], 3):
        total = sum(appeal[g] for g in drawn)
        for g in drawn:
            weights[g] += appeal[g] / total
    return np.array([weights[g] for g in GROUPS])


def _motives(allowed: frozenset[str]) -> np.ndarray:
    return np.array([m in allowed for m in MOTIVES], float).reshape(1, -1, 1, 1)


def tensor(rec: Record, liar_model: str | None = None) -> Tensor:
    """The exact weights of every world given the evidence."""
    n = len(rec.residents)
    w = np.ones((n, len(MOTIVES), len(GROUPS), n + 1))
    for _, factor in factors(rec, liar_model):
        w = w * factor
    return Tensor(rec.residents, rec.people, w)


def explain_excluded(rec: Record, axis: int, index: int) -> list[int] | None:
    """A minimal list of sources that together leave no world with value `index` on `axis`
    (deletion on the slice of the tensor at that value); None if some world has it."""
    sliced = []
    for source, factor in factors(rec, "free"):
        part = np.take(factor, [min(index, factor.shape[axis] - 1)], axis=axis) > 0
        if source is None or not part.all():  # one that excludes nothing here is never needed
            sliced.append((source, part))
    shape = [n for n in (len(rec.residents), len(MOTIVES), len(GROUPS), len(rec.residents) + 1)]
    shape[axis] = 1

    def open_with(kept: Sequence[tuple[int | None, np.ndarray]]) -> bool:
        alive = np.ones(shape, bool)
        for _, part in kept:
            alive = alive & part
            if not alive.any():
                return False
        return True

    if open_with(sliced):
        return None
    kept = list(sliced)
    for item in [x for x in sliced if x[0] is not None]:
        trial = [x for x in kept if x is not item]
        if not open_with(trial):
            kept = trial
    return sorted(source for source, _ in kept if source is not None)


def value_axes(names: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    return (tuple(names), MOTIVES, GROUPS, (*names, NONE))


class TensorWorlds(EnumeratedWorlds):
    """The consistent worlds as a weight tensor. `worlds` lists one witness per possible
    literal (what the deduction needs for certain and possible facts); `total` and `count`
    count consistent worlds; `probability` weighs them by the liar model."""

    exact = True

    def __init__(self, t: Tensor) -> None:
        self.tensor = t
        self.axes = value_axes(t.residents)
        self.support = t.weights > 0
        super().__init__(self._witnesses())
        self.p = t.normalised()

    def _witnesses(self) -> list[World]:
        """One consistent world for each value any consistent world gives a variable."""
        coords = np.unravel_index(np.flatnonzero(self.support), self.support.shape)
        found: list[World] = []
        for axis in range(4):
            _, first = np.unique(coords[axis], return_index=True)
            for i in first:
                found.append({v: self.axes[a][int(coords[a][i])] for a, v in enumerate(VARS)})
        return found

    def _mask(self, fact: Fact) -> np.ndarray:
        axis = (K, M, G, F).index(fact.var)
        hit = np.array([(v in fact.values) != fact.negated for v in self.axes[axis]])
        shape = [1, 1, 1, 1]
        shape[axis] = -1
        return hit.reshape(shape)

    def total(self) -> int:
        return int(self.support.sum())

    def count(self, fact: Fact) -> int:
        return int((self.support & self._mask(fact)).sum())

    def probability(self, fact: Fact) -> float:
        return float((self.p * self._mask(fact)).sum())

    def sample(self, n: int, rng: random.Random) -> list[World]:
        flat = self.p.ravel()
        cumulative = np.cumsum(flat)
        picks = np.searchsorted(cumulative, [rng.random() * cumulative[-1] for _ in range(n)])
        worlds: list[World] = []
        for pick in picks:
            index = np.unravel_index(min(int(pick), flat.size - 1), self.p.shape)
            worlds.append({v: self.axes[a][int(index[a])] for a, v in enumerate((K, M, G, F))})
        return worlds


# --- the model ------------------------------------------------------------------------------------
def killer_fact(name: str) -> Fact:
    return Fact("killer", (name,), K, frozenset({name}), f"{name} is the killer")


def motive_fact(motive: str) -> Fact:
    return Fact("motive", (motive,), M, frozenset({motive}), f"the motive is {motive}")


def allies_fact(group: str) -> Fact:
    return Fact("allies", (group,), G, frozenset({group}), f"the killer's allies are {group}")


def figurant_fact(name: str) -> Fact:
    return Fact("figurant", (name,), F, frozenset({name}), f"{name} is the figurant")


AXIS_FACTS = (killer_fact, motive_fact, allies_fact, figurant_fact)
"""The fact of each value of the posterior's axes (K, M, G, F), in `value_axes`' order."""


def build(info: InformationSet) -> Model:
    rec = record(info)
    names = rec.residents
    card = dict(zip(names, rec.people, strict=True))
    model = Model(info)
    model.variables = [Var(K, names), Var(M, MOTIVES), Var(G, GROUPS), Var(F, (*names, NONE))]
    constraints: list[Constraint] = [
        Clause(negative=(Lit(K, name), Lit(F, name))) for name in names
    ]
    constraints.append(Clause(negative=(Lit(F, NONE),)) if rec.figurant else member(F, [NONE]))
    for source, name in rec.dead:
        constraints.append(Clause(negative=(Lit(K, name),), source=source))
    for source, _, fit in rec.murders:
        constraints.append(member(M, [m for m in MOTIVES if m in fit], source))
    for source, name, attr, value, answer in rec.answers:
        agree = [Lit(K, x.name) for x in rec.people if (x.attribute(attr) == value) == answer]
        liars = (Lit(K, name), Lit(F, name), Lit(G, card[name].group))
        constraints.append(Clause(positive=(*liars, *agree), source=source))
    for source, name, blocked, fit, answer in rec.watches:
        unfit = tuple(Lit(M, m) for m in MOTIVES if m not in fit)
        if blocked and rec.scope == "full":
            if answer:
                constraints.append(Clause(source=source))  # the rules forbid it: inconsistent
        elif answer:
            constraints.append(Clause(negative=(Lit(K, name),), source=source))
            constraints.append(member(M, [m for m in MOTIVES if m in fit], source))
        else:
            constraints.append(Clause(positive=(Lit(K, name), *unfit), source=source))
    for source, named in rec.profiles:
        constraints.append(Clause(negative=(Lit(M, named),), source=source))
    for source, group in rec.confessions:
        allowed = [x.name for x in rec.people if x.group == group] if group else [NONE]
        constraints.append(member(F, allowed, source))
    for source, group in rec.tokens:
        constraints.append(Clause(negative=(Lit(G, group),), source=source))
    model.constraints = constraints
    model.facts = list(facts(names, rec.figurant))
    return model


@lru_cache(maxsize=8)
def facts(names: tuple[str, ...], figurant: bool) -> tuple[Fact, ...]:
    """Who is the killer, his motive, his allies, the figurant: every fact worth asking."""
    return (
        *(killer_fact(n) for n in names),
        *(motive_fact(m) for m in MOTIVES),
        *(allies_fact(g) for g in GROUPS),
        *(figurant_fact(n) for n in names if figurant),
    )


def own_posterior(seat: Seat) -> bool:
    """The detective's model is his own posterior; the killer's is the detective's view."""
    return seat != SEATS[0]


def world_of(state: State) -> World:
    """The truth; what the game has not decided yet is '', no value of its variable: the
    killer's identity (and with it the figurant) until he chooses it, the allies until he
    picks them."""
    assert isinstance(state, CityKillerState)
    identity, figurant, motive, allies = state.secrets()
    return {K: identity, M: motive, G: allies, F: figurant or (NONE if identity else "")}


def world_set(model: Model, compiled: Compiled) -> TensorWorlds:
    return TensorWorlds(tensor(record(model.info)))


def query_variables(model: Model) -> None:
    """None: the four variables are decided exactly by enumeration."""
    return None


# --- validation -----------------------------------------------------------------------------------
Check = Callable[[JsonValue], bool]


def _text(v: JsonValue) -> bool:
    return isinstance(v, str)


def _flag(v: JsonValue) -> bool:
    return isinstance(v, bool)


def _int(v: JsonValue) -> bool:
    return type(v) is int and 0 <= v <= 10_000


def _district(v: JsonValue) -> bool:
    return isinstance(v, tuple) and len(v) == 2 and all(type(x) is int and 1 <= x <= 4 for x in v)


def _words(v: JsonValue) -> bool:
    return isinstance(v, tuple) and all(isinstance(x, str) for x in v)


class _Checker:
    """Checks each observation's kind, fields and values (residents of this game, motives,
    groups, attributes), and who may see it."""

    def __init__(self, info: InformationSet) -> None:
        self.info = info
        self.names: tuple[str, ...] = ()
        self._checks: dict[type[seen.CityKillerObservation], dict[str, Check]] | None = None
        self.history: list[str] = []
        self.dead: set[str] = set()
        self.scenes = 0

    def fail(self, index: int, why: str) -> InvalidInformationSet:
        obs = self.info.observations[index]
        shown = quote(obs.kind if isinstance(obs, Observation) else obs)
        return InvalidInformationSet(f"city-killer: observation {index} ({shown}): {why}")

    def name(self, v: JsonValue) -> bool:
        return isinstance(v, str) and v in self.names

    def names_of(self, v: JsonValue) -> bool:
        return isinstance(v, tuple) and all(self.name(x) for x in v)

    def checks(self) -> dict[type[seen.CityKillerObservation], dict[str, Check]]:
        name, names = self.name, self.names_of
        motive: Check = lambda v: v in MOTIVES  # noqa: E731
        group: Check = lambda v: v in GROUPS  # noqa: E731
        return {
            seen.Murder: {"victim": name, "district": _district, "scene": _int, "round": _int,
                     "alone": _flag, "intimidated": _flag, "history": names},
            seen.Bomb: {"district": _district, "casualties": names, "scene": _int, "round": _int},
            seen.Answered: {"name": name, "attr": lambda v: v in ("sex", "age", "build", "height",
                       "group", "profession"), "value": _text,
                       "answer": lambda v: v is None or isinstance(v, bool), "source": _text},
            seen.Surveillance: {"name": name, "district": _district, "alone": _flag,
                           "intimidated": _flag, "blocked": _flag, "history": names,
                           "answer": _flag},
            seen.Profile: {"pair": lambda v: isinstance(v, tuple) and all(x in MOTIVES for x in v),
                      "named": motive},
            seen.Confession: {"group": lambda v: v is None or v in GROUPS},
            seen.GroupToken: {"seat": lambda v: v in SEATS, "group": group, "source": _text,
                         "empty": _flag},
            seen.Secrets: {"identity": name, "figurant": lambda v: v is None or name(v),
                      "motive": motive, "drawn": lambda v: _words(v) and all(x in GROUPS
                                                                            for x in v)},
        }  # fmt: skip

    def run(self) -> None:
        observations = self.info.observations
        if not observations or not isinstance(observations[0], Observation):
            raise InvalidInformationSet("city-killer: the record must begin with the setup")
        for index, obs in enumerate(observations):
            if not isinstance(obs, Observation) or not isinstance(obs.kind, str):
                raise self.fail(index, "not an Observation")
            shapes = seen.KINDS.get(obs.kind)
            if shapes is None:
                raise self.fail(index, f"unknown kind; the kinds are {', '.join(seen.KINDS)}")
            if not isinstance(obs, seen.CityKillerObservation):
                fields = ", ".join(shapes[0].field_names())
                raise self.fail(index, f"fields must be {fields}")
            if (index == 0) != isinstance(obs, seen.CitySetup):
                raise self.fail(index, "the setup comes first, and only there")
            if isinstance(obs, seen.CitySetup):
                self.check_setup(obs)
            if not obs.seen_by(str(self.info.seat)):
                raise self.fail(index, f"the {self.info.seat} does not see this")
            if self._checks is None:
                self._checks = self.checks()
            for key, check in self._checks.get(type(obs), {}).items():
                value = getattr(obs, key)
                if not check(value):
                    raise self.fail(index, f"field {key!r} cannot be {quote(value)}")
            if (
                isinstance(obs, seen.Answered)
                and obs.answer is not None
                and not self.question(obs.attr, obs.value)
            ):
                raise self.fail(index, f"no question is {obs.attr}:{obs.value}")
            self.follow(index, obs)

    def follow(self, index: int, obs: seen.CityKillerObservation) -> None:
        """The public record the motives read: the dead, the earlier victims, the scenes."""
        if isinstance(obs, seen.Murder | seen.Surveillance) and obs.history != tuple(self.history):
            raise self.fail(index, f"field 'history' must be the earlier victims {self.history}")
        if isinstance(obs, seen.Murder | seen.Bomb):
            if obs.scene != self.scenes + 1:
                raise self.fail(index, f"field 'scene' must be {self.scenes + 1}")
            dead = (obs.victim,) if isinstance(obs, seen.Murder) else obs.casualties
            if any(name in self.dead for name in dead) or not dead:
                raise self.fail(index, "the dead are killed once, and a murder kills someone")
            self.scenes += 1
            self.dead.update(dead)
            if isinstance(obs, seen.Murder) or dict(self.info.options)["bomb_in_history"]:
                self.history.extend(dead)
        elif isinstance(obs, seen.Surveillance | seen.Answered) and obs.name in self.dead:
            raise self.fail(index, f"{obs.name} is dead")

    def check_setup(self, obs: seen.CitySetup) -> None:
        residents = obs.residents
        game = CityKiller.of(self.info)
        if (
            not isinstance(residents, tuple)
            or len(residents) != game.options["residents"]
            or len(set(residents)) != len(residents)
            or not all(isinstance(n, str) and n in game.names for n in residents)
        ):
            raise self.fail(0, f"field 'residents' must be {game.options['residents']} "
                               "different residents of the pool")  # fmt: skip
        self.names = residents
        placement, buildings = obs.placement, obs.buildings
        placed = 0 if game.options["initial_placement"] == "detective" else len(residents)
        ok = isinstance(placement, tuple) and len(placement) == placed
        ok = ok and all(
            isinstance(p, tuple) and len(p) == 3 and p[0] in residents and _district(p[1:])
            for p in placement
        )
        if not ok:
            raise self.fail(0, "field 'placement' must be [name, row, column] per resident "
                               "(none when the detective places them)")  # fmt: skip
        if not isinstance(buildings, tuple) or not all(
            isinstance(b, tuple) and len(b) == 3 and _district(b[:2]) and isinstance(b[2], str)
            for b in buildings
        ):
            raise self.fail(0, "field 'buildings' must be [row, column, kind] per building")

    def question(self, attr: str, value: JsonValue) -> bool:
        """Whether some question of any attribute option names `attr`:`value`."""
        return (attr, value) in questions("profession", CityKiller.of(self.info).professions)


def validate(info: InformationSet) -> None:
    """Check that `info` could come from a City Killer game with its options: kinds, fields,
    values and who sees what. Whether the answers agree is the solver's question.

    A record that stops where someone other than its seat still owes it an observation (the
    answer to a question asked, the result of a surveillance, the killer's pick or motive after
    a card, the cards under a scene, the end) is a true beginning, not a wrong record.

    Raises:
        IncompleteInformationSet: the record stops early; `waiting_for` says what is owed.
        InvalidInformationSet: naming the observation, the field and what is allowed.
    """
    if info.game != "city-killer":
        raise InvalidInformationSet(f"not a City Killer information set: {quote(info.game)}")
    try:
        game = CityKiller.of(info)
    except ConfigError as error:
        raise InvalidInformationSet(f"city-killer: {error}") from None
    if set(dict(info.options)) != set(game.options):
        raise InvalidInformationSet("city-killer: the options must name every option")
    _Checker(info).run()
    owed = Course.of(info.observations, str(info.seat), bool(game.options["bomb_in_history"]))
    waiting = owed.waiting_for()
    if waiting is not None:
        raise IncompleteInformationSet(
            f"city-killer: the record stops before {waiting.waiting_for}", waiting.waiting_for
        )


# --- posteriors, hints --------------------------------------------------------------------------
def entropy(p: np.ndarray) -> float:
    q = p[p > 0]
    return float(-(q * np.log2(q)).sum())


@dataclass(frozen=True)
class Posterior:
    """The detective's posterior: marginals of K, M, G, F, the joint P(K, M), liars."""

    residents: tuple[str, ...]
    people: tuple[Resident, ...]
    p: np.ndarray

    @property
    def killer(self) -> np.ndarray:
        return self.p.sum(axis=(1, 2, 3))

    @property
    def motive(self) -> np.ndarray:
        return self.p.sum(axis=(0, 2, 3))

    @property
    def joint(self) -> np.ndarray:
        return self.p.sum(axis=(2, 3))

    def liar(self, name: str) -> float:
        return float((self.p * liar_mask(self.people, name)).sum())

    def best_accusation(self, living: Sequence[str] | None = None) -> tuple[str, str, float]:
        joint = self.joint.copy()
        if living is not None:
            joint[[n not in living for n in self.residents]] = -1.0
        k, m = np.unravel_index(int(np.argmax(joint)), joint.shape)
        return self.residents[int(k)], MOTIVES[int(m)], float(joint[k, m])


def posterior(info: InformationSet, liar_model: str | None = None) -> Posterior:
    """The exact posterior of the public record (raises `solver.Inconsistent` via deduce
    when it has no consistent world; here a zero total raises ZeroDivision-free ValueError)."""
    t = tensor(record(info), liar_model)
    total = t.weights.sum()
    if total <= 0:
        raise ValueError("no world is consistent with the record")
    return Posterior(t.residents, t.people, t.weights / total)


def liar_joint(post: Posterior, name: str) -> np.ndarray:
    """P(K, M, name lies) over (K, M)."""
    return (post.p * liar_mask(post.people, name)).sum(axis=(2, 3))


def answer_gain(
    post: Posterior, name: str, attr: str, value: str, lying: np.ndarray | None = None
) -> float:
    """Expected information (bits) about (K, M) of asking `name` "is the killer <value>?",
    a liar answering yes or no at random (`lying`: `liar_joint(post, name)`, if known)."""
    joint = post.joint
    liar = liar_joint(post, name) if lying is None else lying
    honest = joint - liar
    match = matches(post.people, attr, value).reshape(-1, 1)
    expected = 0.0
    for truth in (match, ~match):
        outcome = 0.5 * liar + honest * truth
        chance = float(outcome.sum())
        if chance > 0:
            expected += chance * entropy((outcome / chance).ravel())
    return entropy(joint.ravel()) - expected


def legal_matrix(post: Posterior, name: str, fit: frozenset[str], blocked: bool) -> np.ndarray:
    """Over (K, M): whether the killer could kill `name` now (surveillance's answer)."""
    legal = np.ones((len(post.residents), len(MOTIVES)), bool)
    legal[post.residents.index(name)] = False
    legal[:, [m not in fit for m in MOTIVES]] = False
    return legal & (not blocked)


def watch_gain(post: Posterior, legal: np.ndarray) -> float:
    """Expected information (bits) about (K, M) of a surveillance answer: its entropy."""
    yes = float((post.joint * legal).sum())
    return entropy(np.array([yes, 1 - yes]))


def scene_now(state: CityKillerState, name: str) -> frozenset[str]:
    return state.game.predicates.fitting(state.scene_of(name))


def hints(info: InformationSet, deduction: Deduction) -> list[Hint]:
    post = posterior_of(info, deduction)
    found = _suspect_hints(info, deduction, post)
    if info.seat == "detective":
        found += _detective_moves(info, post)
    else:
        found += _killer_moves(info, post)
    return found


def posterior_of(info: InformationSet, deduction: Deduction) -> Posterior:
    """The posterior a deduction holds: the counted tensor, or under an opponent model
    (`solver.deduce(info, model=...)`) that tensor fitted to the model's odds of every value
    (`ModelledWorlds.joint`), so that each killer's and motive's odds are the deduction's."""
    worlds = deduction.worlds
    if isinstance(worlds, TensorWorlds):
        return Posterior(worlds.tensor.residents, worlds.tensor.people, worlds.p)
    counted = posterior(info)
    if isinstance(worlds, ModelledWorlds):
        axes = [
            [fact_of(value) for value in values]
            for fact_of, values in zip(AXIS_FACTS, value_axes(counted.residents), strict=True)
        ]
        return Posterior(counted.residents, counted.people, worlds.joint(counted.p, axes))
    return counted


def answer(info: InformationSet, deduction: Deduction) -> Answer | None:
    """The detective's answer, the killer, once certain, and the plan: accuse him with his
    motive (the likeliest, while it is open). The killer knows who he is: nothing to tell."""
    if info.seat != "detective":
        return None
    post = posterior_of(info, deduction)
    open_k = [name for p, name in zip(post.killer, post.residents, strict=True) if p > 0]
    if len(open_k) != 1:
        return None
    fact = killer_fact(open_k[0])
    because = tuple(deduction.describe(deduction.explain(fact)))
    hint = Hint(f"{fact.text[:1].upper()}{fact.text[1:]} (certain)", fact, 1.0, because,
                "answer", 3.0)  # fmt: skip
    if any(isinstance(obs, seen.End) for obs in info.observations):
        return Answer(hint)
    who, motive, p = post.best_accusation(_living(info))
    if p >= 1.0:
        return Answer(hint, f"Accuse {who} as {motive}: the motive is certain too")
    open_m = [(q, m) for q, m in sorted(zip(post.motive, MOTIVES, strict=True), reverse=True) if q]
    listed = ", ".join(f"{m} {percent(q)}" for q, m in open_m[:4])
    return Answer(
        hint,
        f"The motive is still open ({listed}): narrow it before accusing, or accuse "
        f"{who} as {motive} now ({percent(p)} right)",
    )


def _suspect_hints(info: InformationSet, deduction: Deduction, post: Posterior) -> list[Hint]:
    names, found = post.residents, []
    killers = sorted(zip(post.killer, names, strict=True), reverse=True)
    motives = sorted(zip(post.motive, MOTIVES, strict=True), reverse=True)
    open_k = [(float(p), n) for p, n in killers if p > 0]
    open_m = [(float(p), m) for p, m in motives if p > 0]
    detective = info.seat == "detective"  # the killer reads the detective's odds of him
    whose = "" if detective else "The detective's "
    how = "" if deduction.exact else f"; estimated, read as {deduction.opponent_model} killers"
    for heading, left, fact_of, shown, score in (
        (f"{whose}suspects".capitalize(), open_k, killer_fact, 5, 1.5),
        (f"{whose}motives".capitalize(), open_m, motive_fact, 4, 1.4),
    ):
        fact = fact_of(left[0][1])
        if len(left) == 1:  # told as certain, not as "1 possible: >99%"
            because = tuple(deduction.describe(deduction.explain(fact)))
            said = "Certain" if detective else "The detective can be certain"
            found.append(Hint(f"{said}: {fact.text}", fact, 1.0, because, "certain", 3.0))
            continue
        listed = ", ".join(f"{n} {percent(p)}" for p, n in left[:shown])
        text = f"{heading} ({len(left)} possible{how}): {listed}"
        found.append(Hint(text, fact, left[0][0], (), "likely", score + left[0][0]))
    ruled = [n for p, n in killers if p == 0 and n not in _dead(info)]
    rec = record(info)
    for name in ruled[:3]:
        sources = explain_excluded(rec, 0, names.index(name))
        assert sources is not None
        because = tuple(deduction.describe([info.observations[i] for i in sources]))
        fact = ~killer_fact(name)
        text = f"{name} cannot be the killer" if detective else f"The detective can rule out {name}"
        found.append(Hint(text, fact, 1.0, because, "certain", 2.0))
    who, motive, p = post.best_accusation(_living(info))
    if not detective:
        text = f"The detective's best accusation now: {who} as {motive} ({percent(p)} right)"
        found.append(Hint(text, None, p, (), "likely", 1.3 + p))
    elif _accusing(info):
        text = f"Accuse now: {who} as {motive} ({percent(p)} right; type: accuse {who} {motive})"
        found.append(Hint(text, None, p, (), "suggestion", 1.6 + p))
    else:
        text = f"If you had to accuse now: {who} as {motive} ({percent(p)} right)"
        found.append(Hint(text, None, p, (), "likely", 1.3 + p))
    return found


def _accusing(info: InformationSet) -> bool:
    """Whether the detective's accusation is the move now (after the 5th murder)."""
    state = _view(info)
    return state is not None and not state.over and isinstance(state.frames[-1], FinalAccusation)


def _dead(info: InformationSet) -> set[str]:
    return {name for _, name in record(info).dead}


def _living(info: InformationSet) -> list[str]:
    dead = _dead(info)
    return [n for n in record(info).residents if n not in dead]


def _answered(info: InformationSet) -> list[str]:
    return list(dict.fromkeys(name for _, name, *_ in record(info).answers))


def _view(info: InformationSet) -> CityKillerState | None:
    game = CityKiller.of(info)
    try:
        return game.seat_view(info)
    except Exception:  # a record the engine cannot replay: no move hints, the rest stands
        return None


def _detective_moves(info: InformationSet, post: Posterior) -> list[Hint]:
    found = []
    liars = sorted(((post.liar(n), n) for n in _answered(info)), reverse=True)
    if liars and liars[0][0] > 0:
        listed = ", ".join(f"{n} {percent(p)}" for p, n in liars[:3])
        found.append(Hint(f"Probably lying: {listed}", None, liars[0][0], (), "likely", 1.2))
    state = _view(info)
    if state is None or state.over or state.pawn is None:
        return found
    pairs = 2 ** entropy(post.joint.ravel())
    best = best_question(state, post)
    if best is not None:
        bits, name, attr, value, how = best
        where = " at the diner next door" if how == "diner" else ""
        text = (
            f"Ask {name}{where} whether the killer is {question_words(attr, value)}: "
            f"{narrowing(pairs, bits)} (type: {how} {name} {attr}:{value})"
        )
        because = (f"the answer is worth {bits:.2f} bits about the killer and his motive, "
                   "a liar's answer counted as a coin toss",)  # fmt: skip
        found.append(Hint(text, None, None, because, "move", 1.5 + bits))
    watch = best_watch(state, post)
    if watch is not None:
        bits, name = watch
        text = (
            f"Put {name} under surveillance (whether the killer could kill them now): "
            f"{narrowing(pairs, bits)} (type: police {name})"
        )
        because = (f"the answer is worth {bits:.2f} bits about the killer and his motive",)
        found.append(Hint(text, None, None, because, "move", 1.4 + bits))
    return found


def question_words(attr: str, value: str) -> str:
    """A question's subject as a player says it: "short", "in the press", "a coroner"."""
    if attr == "group":
        return f"in the {value} group"
    if attr == "profession":
        article = "an" if value[0] in "aeiou" else "a"
        return f"{article} {value.replace('-', ' ')}"
    if value == "medium":
        return {"build": "of medium build", "height": "of medium height"}.get(attr, value)
    return value


def narrowing(pairs: float, bits: float) -> str:
    """What an answer worth `bits` does to the (killer, motive) pairs in play, as counts: the
    pairs as if equally likely (2 ** entropy) now and expected after it."""
    after = pairs / 2**bits
    if round(after) >= round(pairs):
        return f"it should barely narrow the {round(pairs)} or so likely killer-motive pairs"
    return (
        f"it should narrow the likely killer-motive pairs from about {round(pairs)} "
        f"to about {max(1, round(after))}"
    )


def question_candidates(state: CityKillerState) -> list[tuple[str, str]]:
    """(resident, how) questionable now: interrogation here, the diner next door."""
    assert state.pawn is not None
    found = [(n, "ask") for n in state.at(state.pawn) if state.questionable(n)]
    if state.buildings.get(state.pawn) == "diner":
        near = state.near(state.pawn)
        found += [
            (n, "diner")
            for n in state.living
            if state.pos[n] in near and state.questionable(n) and (n, "ask") not in found
        ]
    return found


def best_question(
    state: CityKillerState, post: Posterior
) -> tuple[float, str, str, str, str] | None:
    best = None
    for name, how in question_candidates(state):
        lying = liar_joint(post, name)
        for attr, value in state.question_choices():
            bits = answer_gain(post, name, attr, value, lying)
            if best is None or bits > best[0] + 1e-12:
                best = (bits, name, attr, value, how)
    return best


def best_watch(state: CityKillerState, post: Posterior) -> tuple[float, str] | None:
    """The resident within the police station's reach (or carrying the token) whose
    surveillance tells most."""
    assert state.pawn is not None
    names = [state.token] if state.token else []
    if state.buildings.get(state.pawn) == "police":
        near = state.near(state.pawn)
        names += [n for n in state.living if state.pos[n] in near]
    best = None
    for name in dict.fromkeys(n for n in names if n is not None):
        legal = legal_matrix(post, name, scene_now(state, name), state.protected(name, False))
        bits = watch_gain(post, legal)
        if best is None or bits > best[0] + 1e-12:
            best = (bits, name)
    return best


def secrets(info: InformationSet) -> tuple[str, str, str]:
    """The killer's identity, motive and allies, from his own observations."""
    secret, allies = None, ""
    for obs in info.observations:
        if isinstance(obs, seen.Secrets):
            secret = obs
        elif isinstance(obs, seen.Allies):
            allies = obs.group
    if secret is None:
        raise KeyError("the killer's record has no secrets")
    return secret.identity, secret.motive, allies


def _killer_moves(info: InformationSet, post: Posterior) -> list[Hint]:
    if not any(isinstance(o, seen.Secrets) for o in info.observations):
        return []
    identity, motive, _ = secrets(info)
    joint = post.joint
    p_k = float(post.killer[post.residents.index(identity)])
    p_km = float(joint[post.residents.index(identity), MOTIVES.index(motive)])
    found = [Hint(f"Exposure: the detective gives you {percent(p_k)} as the killer and "
                  f"{percent(p_km)} for you with your motive", None, p_km, (), "danger",
                  1.5 + p_km)]  # fmt: skip
    state = _view(info)
    if state is None or state.over or not state.frames:
        return found
    frame = state.frames[-1]
    if isinstance(frame, KillerTurn) and not state.intimidations_left(frame):
        options = victim_options(state, post)
        if options:  # the odds each choice leaves; the solver's choice is the search's hint
            listed = ", ".join(f"{name} {percent(p)}" for p, name in options[:5])
            text = f"After each murder, the detective's odds on you with your motive: {listed}"
            found.append(Hint(text, None, options[0][0], (), "likely", 1.5 - options[0][0]))
    if isinstance(frame, AnswerQuestion) and state.is_liar(frame.name):
        for answer in (True, False):
            p = after_answer(post, identity, motive, frame.name, frame.attr, frame.value, answer)
            found.append(
                Hint(
                    f"Answer {'yes' if answer else 'no'} for {frame.name}: "
                    f"{percent(p)} on you afterwards",
                    None,
                    p,
                    (),
                    "move",
                    1.4 - p,
                )
            )
    return found


def victim_options(state: CityKillerState, post: Posterior) -> list[tuple[float, str]]:
    """Each legal victim, with the detective's P(K, M) on the truth after that murder."""
    identity, _, motive, _ = state.secrets()
    found = []
    for name in state.living:
        if not state.legal_victim(name):
            continue
        fit = scene_now(state, name)
        p = post.p.copy()
        p[post.residents.index(name)] = 0.0
        p[:, [m not in fit for m in MOTIVES]] = 0.0
        joint = p.sum(axis=(2, 3))
        total = joint.sum()
        truth = joint[post.residents.index(identity), MOTIVES.index(motive)] / total
        found.append((float(truth), name))
    return sorted(found)


def after_answer(post: Posterior, identity: str, motive: str, name: str, attr: str,
                 value: str, answer: bool) -> float:  # fmt: skip
    """The detective's P(K, M) on the truth after `name` answers `answer`."""
    n = len(post.residents)
    match = matches(post.people, attr, value).reshape(n, 1, 1, 1)
    liar = liar_mask(post.people, name)
    likelihood = np.where(liar, 0.5, (match == answer).astype(float))
    joint = (post.p * likelihood).sum(axis=(2, 3))
    total = joint.sum()
    if total <= 0:
        return 0.0
    return float(joint[post.residents.index(identity), MOTIVES.index(motive)] / total)
