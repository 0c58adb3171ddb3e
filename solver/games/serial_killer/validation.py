"""Checking that an information set is one Serial Killer could show its seat."""

from __future__ import annotations

from collections import Counter

from engines import (
    IllegalAction,
    IncompleteInformationSet,
    InformationSet,
    InvalidInformationSet,
    Observation,
)
from engines.serial_killer import SerialKiller, replay
from engines.serial_killer import observations as seen
from engines.serial_killer.actions import ACTIONS
from engines.serial_killer.state import DICE, DISTRICTS, FACES, HAND_LIMIT, WEAPON_MAX
from engines.values import is_int, quote, same_json
from solver.games.serial_killer.position import public_view
from solver.validation import Checker


def validate(info: InformationSet) -> None:
    """Refuse what the game could not have shown this seat: the shape of each observation,
    then a replay of the public record (every action legal where it stands, every chance
    outcome where the rules roll) that must show the same observations, the seat's private
    ones agreeing with the public record (its own cards, the sizes and genres it was shown).

    Raises:
        IncompleteInformationSet: a true beginning that stops where the game still shows
            something (a draw after an investigation, the pollution die after a discard).
        InvalidInformationSet: naming the observation and what is wrong.
    """
    game = info.make_game()
    assert isinstance(game, SerialKiller) and isinstance(info.seat, int)
    if not game.options["genre_public"]:
        raise InvalidInformationSet(
            "serial-killer: the knowledge model counts worlds genre by genre, which needs the "
            "card backs to show their genre (option genre_public True)"
        )
    check = Checker(info, seen.KINDS)
    observations = info.observations
    for index, obs in enumerate(observations):
        check.shape(index)
        if isinstance(obs, seen.PRIVATE) and obs.seat != info.seat:
            check.refuse(index, f"only seat {obs.seat} sees this, not seat {info.seat}")
    if not observations or not isinstance(observations[0], seen.Start):
        raise IncompleteInformationSet(
            "serial-killer: an information set starts with the setup", "the setup"
        )
    fields = _FieldChecks(check, game)
    for index in range(len(observations)):
        fields.run(index)
    last = observations[-1]
    if isinstance(last, seen.LabPlace) and last.seat == info.seat:
        raise IncompleteInformationSet(
            "serial-killer: the record stops before the card you discarded", "see_discard"
        )
    try:
        view = public_view(info)
    except IllegalAction as error:
        check.refuse(_failing(game, info), f"the game would not allow it: {error}")
    shown = [obs for obs, to in view.recorded() if to is None or info.seat in to]
    for index, (given, expected) in enumerate(zip(observations, shown, strict=False)):
        if not _agrees(game, given, expected):
            check.refuse(
                index,
                f"the game shows {quote(game.describe(expected), 120)} here, "
                f"not {quote(game.describe(given), 120)}",
            )
    if view.waiting_for and len(shown) == len(observations):
        raise IncompleteInformationSet(
            f"serial-killer: the record stops before {view.waiting_for}", view.waiting_for
        )
    if len(shown) > len(observations):
        nxt = shown[len(observations)]
        raise IncompleteInformationSet(
            f"serial-killer: the record stops before {nxt.kind} ({game.describe(nxt)})", nxt.kind
        )
    if len(shown) < len(observations):
        check.refuse(len(shown), "the game shows nothing more here")


def _failing(game: SerialKiller, info: InformationSet) -> int:
    """The index of the first observation whose replay is refused, found by bisecting the
    prefixes (a refused prefix stays refused when it grows): a typo late in a long record is
    refused after a dozen replays, not one per observation (2 s at 170 observations)."""
    assert isinstance(info.seat, int)
    seat = info.seat

    def refused(end: int) -> bool:
        try:
            replay(game, info.observations[:end], seat, strict=True)
        except IllegalAction:
            return True
        return False

    low, high = 0, len(info.observations)  # prefix [:low] replays; [:high] is refused
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if refused(middle) else (middle, high)
    return high - 1


def _genres(cards: object) -> Counter[str]:
    assert isinstance(cards, tuple)
    return Counter(str(c[1] if isinstance(c, tuple) else c).partition(".")[0] for c in cards)


def _agrees(game: SerialKiller, given: Observation, expected: Observation) -> bool:
    """Whether `given` is the observation the replay showed, up to the hidden identities the
    replay does not know (placeholders in others' hands and the lab)."""
    if given.kind != expected.kind:
        return False
    match given, expected:
        case seen.SeeHand(), seen.SeeHand():
            return given.target == expected.target and _genres(given.cards) == _genres(
                expected.cards
            )
        case seen.SeeLab(), seen.SeeLab():
            positions = [p for p, _ in given.cards]
            if positions != [p for p, _ in expected.cards]:
                return False
            pairs = zip(given.cards, expected.cards, strict=True)
            return all(
                (e[1].endswith("?") and _genres((g[1],)) == _genres((e[1],))) or g[1] == e[1]
                for g, e in pairs
            )
        case seen.GameEnd(), seen.GameEnd():
            return (
                given.reason == expected.reason
                and _declared(given) == _declared(expected)
                and given.winners == _judged(game, given)
            )
    return same_json(given.fields, expected.fields)


def _declared(end: seen.GameEnd) -> list[tuple[object, object]]:
    """Who declared at the end, in their order (the profiles are hidden from the replay)."""
    return [(seat, order) for seat, order, _ in end.declarations]


def _judged(game: SerialKiller, end: seen.GameEnd) -> tuple[int, ...]:
    """The winner the rules name from the end's profile and declarations: the first right
    declaration, unless the game ended without judging them (§6)."""
    reason, outcome = end.reason, game.options["unreachable_outcome"]
    if reason == ROUND_CAP or (reason == NOBODY_REACHES and outcome != "reveal"):
        return ()
    declared = sorted(end.declarations, key=lambda entry: entry[1])
    right = [seat for seat, _, profile in declared if profile == end.profile]
    return tuple(right[:1])


ROUND_CAP, NOBODY_REACHES = "the round cap", "nobody can reach the ferocity"
END_REASONS = ("the decks are exhausted", "every player has declared", ROUND_CAP, NOBODY_REACHES)


BUY_DETAIL = {"weapon": "weapon", "move": "district", "briefing": "targets", "lab": "positions"}
"""The field a buy of each kind adds to the five every buy has."""


class _FieldChecks:
    """Each field of each observation kind checked for its type and its range, before the
    replay does any work sized by it (a deck of 2**31 placeholders, 10**20 dice)."""

    def __init__(self, check: Checker, game: SerialKiller) -> None:
        self.check, self.game, self.parts = check, game, game.parts
        self.seats = game.seats
        self.lab_positions = range(1, game.lab_size + 1)
        rounds = sum(isinstance(obs, seen.Roll) for obs in check.info.observations)
        options = game.options
        per_round = FACES * DICE // 10 + 7 * options["hunted_bonus"]
        per_round += options["uniform_roll_bonus"]
        self.most_ferocity = options["start_ferocity"] + rounds * per_round
        self.most_rounds = max(rounds, 1)

    def run(self, index: int) -> None:
        """The observation's fields (its shape checked: pass, end_pick and skip have the
        seat alone)."""
        obs = self.check.info.observations[index]
        if isinstance(obs, seen.Seated):
            self.check.choice(index, "seat", self.seats)
        match obs:
            case seen.Start():
                self._setup(index, obs)
            case seen.PawnAt():  # place, relocate
                self.check.choice(index, "district", DISTRICTS)
            case seen.Roll():
                self._roll(index)
            case seen.Buy():
                self._buy(index, obs)
            case seen.Draw():
                self._draw(index)
            case seen.SeeDraw():
                self._see_draw(index)
            case seen.LabPlace():
                self._lab_place(index, obs)
            case seen.SeeDiscard():
                self.check.choice(index, "card", self.parts.ids)
                self.check.choice(index, "position", self.lab_positions)
            case seen.Pollution():
                self.check.number(index, "die", 1, FACES)
                self.check.optional_number(index, "position", 1, self.game.lab_size)
            case seen.SeeHand():
                self.check.choice(index, "target", self.seats)
                self.check.items(index, "cards", self.parts.ids, range(HAND_LIMIT + 1), "card ids")
            case seen.SeeLab():
                self._see_lab(index, obs)
            case seen.Declaration():
                self._profile(index, "profile", obs.profile)
            case seen.Attempt():
                self._attempt(index)
            case seen.RoundEnd():
                self._round_end(index, obs)
            case seen.GameEnd():
                self._end(index, obs)

    def _setup(self, index: int, obs: seen.Start) -> None:
        check, parts = self.check, self.parts
        check.choice(index, "players", (self.game.players,))
        check.choice(index, "first_player", self.seats)
        decks = obs.decks
        expected = [(g.id, len(g.cards)) for g in parts.genres]
        allowed = (
            f"one (genre, district, {len(parts.genres[0].cards)}) triple per genre, in the "
            f"order {', '.join(parts.genre_ids)}, on distinct districts 1 to 7"
        )
        if not (
            isinstance(decks, tuple)
            and all(isinstance(deck, tuple) and len(deck) == 3 for deck in decks)
            and [(genre, size) for genre, _, size in decks] == expected
            and all(type(size) is int and type(genre) is str for genre, _, size in decks)
            and all(district in DISTRICTS and is_int(district) for _, district, _ in decks)
            and len({district for _, district, _ in decks}) == len(decks)
        ):
            check.fail(index, "decks", decks, allowed)

    def _roll(self, index: int) -> None:
        check = self.check
        check.number(index, "round", 1, self.most_rounds)
        counts = check.numbers(index, "counts", 0, DICE, FACES)
        if sum(counts) != DICE:
            check.fail(index, "counts", counts, f"{FACES} counts of the {DICE} dice rolled")
        check.choice(index, "bonus", sorted({0, self.game.options["uniform_roll_bonus"]}))

    def _buy(self, index: int, obs: seen.Buy) -> None:
        check, options = self.check, self.game.options
        check.number(index, "face", 1, FACES)
        action = str(check.choice(index, "action", ACTIONS))
        check.number(index, "cost", 1, options["start_points"])
        check.number(index, "points", 0, options["start_points"])
        detail = BUY_DETAIL.get(action)
        given = set(type(obs).field_names()) & {*BUY_DETAIL.values()}
        if given != ({detail} if detail else set()):
            check.fail(index, "the fields", sorted(given), f"for {action}: {detail or 'none'}")
        match obs:  # the shape of the action's word, so checked
            case seen.BuyWeapon():
                check.number(index, "weapon", 1, WEAPON_MAX)
            case seen.BuyMove():
                check.choice(index, "district", DISTRICTS)
            case seen.BuyBriefing():
                check.items(index, "targets", self.seats, range(1, len(self.seats)), "seats")
            case seen.BuyLab():
                positions = check.items(index, "positions", self.lab_positions, None, "positions")
                if list(positions) != sorted(positions):  # type: ignore[type-var]
                    check.fail(index, "positions", positions, "lab positions in increasing order")

    def _draw(self, index: int) -> None:
        genre = self.check.choice(index, "genre", self.parts.genre_ids)
        self.check.choice(index, "district", DISTRICTS)
        size = len(self.parts.by_genre[str(genre)].cards)
        self.check.number(index, "deck_size", 1, size - 1)

    def _see_draw(self, index: int) -> None:
        """The card is one of the deck the draw just before it names (the replay puts it on
        top of that deck, so a card of another genre would otherwise pass)."""
        card = self.check.choice(index, "card", self.parts.ids)
        before = self.check.info.observations[index - 1] if index else None
        if isinstance(before, seen.Draw):
            genre = before.genre
            if str(card).partition(".")[0] != genre:
                self.check.fail(index, "card", card, f"a {genre} card (the deck drawn from)")

    def _lab_place(self, index: int, obs: seen.LabPlace) -> None:
        self.check.choice(index, "position", self.lab_positions)
        if isinstance(obs, seen.LabPlaceGenre):
            self.check.choice(index, "genre", self.parts.genre_ids)

    def _see_lab(self, index: int, obs: seen.SeeLab) -> None:
        check = self.check
        cards = obs.cards
        if not (
            isinstance(cards, tuple)
            and len(cards) <= self.game.lab_size
            and all(self._lab_card(pair) for pair in cards)
            and len({pair[0] for pair in cards}) == len(cards)
        ):
            check.fail(index, "cards", cards, "distinct (lab position, card id) pairs")

    def _lab_card(self, pair: object) -> bool:
        return (
            isinstance(pair, tuple)
            and len(pair) == 2
            and is_int(pair[0])
            and pair[0] in self.lab_positions
            and isinstance(pair[1], str)
            and pair[1] in self.parts.ids
        )

    def _profile(self, index: int, field: str, profile: object) -> None:
        genres = self.parts.genres
        if not (
            isinstance(profile, tuple)
            and len(profile) == len(genres)
            and all(
                isinstance(card, str) and card in genre.cards
                for card, genre in zip(profile, genres, strict=True)
            )
        ):
            allowed = f"one card id per genre, in the order {', '.join(self.parts.genre_ids)}"
            self.check.fail(index, field, profile, allowed)

    def _attempt(self, index: int) -> None:
        check = self.check
        dice = check.number(index, "dice", 0, self.game.max_dice)
        check.number(index, "total", dice, FACES * dice)
        check.number(index, "ferocity", 0, self.most_ferocity)
        check.flag(index, "success")
        check.optional_number(index, "seq", 1, len(self.seats))

    def _round_end(self, index: int, obs: seen.RoundEnd) -> None:
        check, options = self.check, self.game.options
        check.number(index, "round", 1, self.most_rounds)
        check.number(index, "unused", 0, FACES * DICE)
        check.number(index, "hunted", 0, 7 * options["hunted_bonus"])
        check.number(index, "ferocity", 0, self.most_ferocity)
        caught = obs.caught
        if not (
            isinstance(caught, tuple)
            and len(caught) == len(self.seats)
            and all(isinstance(flag, bool) for flag in caught)
        ):
            check.fail(index, "caught", caught, f"{len(self.seats)} booleans, one per seat")
        check.choice(index, "first_player", self.seats)

    def _end(self, index: int, obs: seen.GameEnd) -> None:
        check = self.check
        check.choice(index, "reason", END_REASONS)
        self._profile(index, "profile", obs.profile)
        declarations = obs.declarations
        if not isinstance(declarations, tuple) or len(declarations) > len(self.seats):
            check.fail(index, "declarations", declarations, "(seat, order, profile) triples")
        for entry in declarations:
            if not (
                isinstance(entry, tuple)
                and len(entry) == 3
                and is_int(entry[0])
                and entry[0] in self.seats
                and is_int(entry[1])
                and 1 <= entry[1] <= len(self.seats)
            ):
                check.fail(index, "declarations", declarations, "(seat, order, profile) triples")
            self._profile(index, "declarations", entry[2])
        check.items(index, "winners", self.seats, (0, 1), "seats")
