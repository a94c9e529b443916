"""The Bloodwood state schema, the game's fixed tables (the rules themselves, BW-1, BW-3, BW-21a, BW-26), the
engine's error and event types, and what each viewer sees of the state (BW-25).

Pure: no Django, no I/O, no clock, no global ``random``. Seat ids are **string** keys everywhere in the state, as
JSON stores them; order payloads name seats by int ids. Varying data (card copies, step deadlines) is not here: it
comes from ``data/game.yaml`` through the module layer and is snapshotted into ``State.data`` at set-up.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

from gm.core.engine import RuleError, RuleViolation


def _(s: str) -> str:
    """Marks a msgid for ``makemessages``; the shell translates it when it renders the error."""
    return s


MIN_PLAYERS, MAX_PLAYERS = 5, 12
HAND = 4

NIGHT_CARDS = ("bite", "curse_mark", "chains", "tranquilizer", "voodoo", "leshy", "hunter", "mirror")
DAY_CARDS = ("vaccine", "candle", "keys", "pandoras_box", "thief", "blood_test", "confession", "amulet")
SPECIAL_CARDS = ("eclipse", "time_loop")
CARDS = NIGHT_CARDS + DAY_CARDS + SPECIAL_CARDS
#: The answers (BW-8): played only out of one's own turn, against an attack.
PROTECTION = ("amulet", "mirror")
#: The targeted night cards that attack a player directly (BW-8a); only these open a ``reaction`` step.
ATTACKS = ("bite", "curse_mark", "chains", "tranquilizer", "voodoo")
#: Cards that take a target (BW-21a); the others (``leshy``, ``hunter``, ``eclipse``, ``time_loop``) take none.
TARGETED = ATTACKS + ("vaccine", "candle", "keys", "pandoras_box", "thief", "blood_test", "confession")
#: Cards that may not be played on oneself (BW-21b).
NOT_SELF = ("bite", "curse_mark", "chains", "tranquilizer", "voodoo", "thief", "blood_test", "confession")
#: Cards that may not be played on a permanently mutated player (BW-10b).
NOT_PERMANENT = ("bite", "curse_mark", "vaccine")
#: Markers (BW-10–BW-12): each lies face up by its carrier and is public.
MARKERS = ("curse_mark", "chains", "tranquilizer")

ENTITIES = ("vampire", "dracula", "werewolf", "the_alpha")
TEAMS = ("vampires", "werewolves")
TEAM_OF = {"vampire": "vampires", "dracula": "vampires", "werewolf": "werewolves", "the_alpha": "werewolves"}
LEADER = {"vampires": "dracula", "werewolves": "the_alpha"}
ORDINARY = {"vampires": "vampire", "werewolves": "werewolf"}
LEADERS = ("dracula", "the_alpha")

DNA = ("purity", "mutated", "permanent")
STEPS = ("turn", "reaction", "discard", "give", "keep", "refill")
#: Refusal codes whose card is lost under the inattention option (BW-23a): on a move, and on an answer.
INATTENTION_MOVE = ("wrong_phase", "reaction_only", "chained", "two_in_a_row", "self_target", "permanent",
                    "already_marked", "no_curse_mark", "no_chains", "no_cards", "already_confessed")
INATTENTION_ANSWER = ("tranquilized", "no_attack", "not_target", "chained")

#: Each refusal code's rule ID and message (BW-26).
REFUSALS: dict[str, tuple[str, str]] = {
    "game_over": ("BW-26", _("The game is over.")),
    "not_your_turn": ("BW-26", _("You are not an actor of the open step.")),
    "not_in_hand": ("BW-26", _("You do not hold that card.")),
    "reaction_only": ("BW-8", _("Amulet and Mirror are played only as an answer, never on your own turn.")),
    "wrong_phase": ("BW-6a", _("That card can't be played in this phase.")),
    "chained": ("BW-11a", _("Under Chains you can't use night cards.")),
    "two_in_a_row": ("BW-7d", _("Eclipse and Time Loop can't be played in the extra turn one of them gave.")),
    "bad_target": ("BW-21a", _("That target is not allowed for this card.")),
    "self_target": ("BW-21b", _("That card can't be played on yourself.")),
    "permanent": ("BW-10b", _("That card can't be played on a permanently mutated player.")),
    "already_marked": ("BW-10", _("That player already carries that marker.")),
    "no_curse_mark": ("BW-17", _("That player carries no Curse Mark.")),
    "no_chains": ("BW-17", _("That player is not under Chains.")),
    "no_cards": ("BW-19", _("That player holds no card.")),
    "already_confessed": ("BW-20a", _("You have already confessed to that player.")),
    "tranquilized": ("BW-8d", _("A tranquilized player can't answer.")),
    "no_attack": ("BW-8", _("No attack waits for an answer.")),
    "not_target": ("BW-8", _("You can answer only an attack on yourself.")),
    "bad_discard": ("BW-6", _("Discard exactly one card on your turn, or exactly two after The Leshy.")),
    "bad_give": ("BW-15a", _("Give exactly one card.")),
    "bad_keep": ("BW-13a", _("Keep exactly the number of cards due.")),
    "bad_refill": ("BW-6f", _("That split does not draw the number of cards due.")),
    "mutated": ("BW-2", _("Only a player whose DNA shows Purity may declare the end.")),
    "bad_declaration": ("BW-22b", _("Name at least one other player, each once.")),
    "bad_order": ("BW-26", _("That is not a line of this step.")),
}

Phase = Literal["day", "night"]


class Step(TypedDict, total=False):
    """The open step (BW-24): ``kind``, ``actors`` (seat ids, strings) and its context: for ``reaction`` the
    ``attacker``, ``target`` and ``card``; for ``discard``/``give`` the ``player`` of the Leshy/Hunter; for ``keep``
    the ``player``, the ``pool`` (cards to choose from) and ``mode`` (``voodoo`` or ``hunter``) with the ``other``
    (the Voodoo's victim) and ``own`` (how many of the pool were his); for ``refill`` the ``player``, ``due`` (cards
    due) and ``mode`` (``end``, ``one``, ``four``)."""

    kind: str
    actors: list[str]
    attacker: str
    target: str
    card: str
    player: str
    pool: list[str]
    mode: str
    other: str
    own: int
    due: int
    gives: dict[str, str]


class State(TypedDict, total=False):
    """The game state (a JSON object; seat ids as strings).

    Game data snapshotted at set-up: ``data`` (``cards``: slug → ``{deck, copies}``; ``deadlines``: ``turn`` and
    ``step`` minutes), ``options``, ``names`` (seat id → display name), ``order`` (the seats clockwise, BW-6e).
    Secret: ``entities`` (seat id → entity, BW-3), ``hands`` (seat id → cards in hand order, BW-24c), ``decks``
    (``day``/``night``, top first). Public: ``dna``, ``curse`` (carrier → own turns left, BW-10a), ``fresh`` (carriers
    whose mark reached them during their own turn, BW-10a), ``chains``, ``tranq``, ``confessed`` (seat → seats he
    confessed to, BW-20a), ``discard`` (top first), ``phase``, ``direction`` (1 clockwise, -1 counterclockwise),
    ``starter``, ``turns_done``, ``to_move``, ``extra_turn``, ``turn_no`` (turns started), ``step`` (the open step),
    ``agenda`` (what the engine still does once the step closes), ``seq`` (steps opened), ``declaration`` (a
    declaration made and checked, judged when the open step closes at once, BW-22b), ``shuffle_seed`` and
    ``reshuffles`` (the game's RNG for rebuilt decks, BW-24d), ``over``, ``winner`` and ``winners``."""

    data: dict[str, Any]
    options: dict[str, Any]
    names: dict[str, str]
    order: list[str]
    entities: dict[str, str]
    hands: dict[str, list[str]]
    decks: dict[str, list[str]]
    dna: dict[str, str]
    curse: dict[str, int]
    fresh: list[str]
    chains: list[str]
    tranq: list[str]
    confessed: dict[str, list[str]]
    discard: list[str]
    phase: Phase
    direction: int
    starter: str
    turns_done: int
    to_move: str | None
    extra_turn: bool
    turn_no: int
    step: Step | None
    agenda: list[dict[str, Any]]
    seq: int
    hunted: list[str]
    declaration: dict[str, Any] | None
    shuffle_seed: int
    reshuffles: int
    over: bool
    winner: str | None
    winners: list[str]


class SeatData(TypedDict, total=False):
    """A seat's data (secret to its player and the master until the end): ``entity`` and ``team`` (BW-3) and
    ``learned`` (what this seat was shown: ``{"kind", "data"}`` of its private lines, BW-4, BW-20)."""

    entity: str
    team: str
    learned: list[dict[str, Any]]


class BwError(Exception):
    """A refusal (BW-26): ``code`` is one of :data:`REFUSALS`; ``rule`` and ``message`` come from that table unless
    given; ``params`` fill the message."""

    def __init__(self, code: str, field: str = "", **params: Any):
        self.code = code
        self.rule, self.message = REFUSALS[code]
        self.field = field
        self.params = params
        super().__init__(f"{code}: {self.message % params if params else self.message}")


def violation(exc: BwError) -> RuleViolation:
    """The core's :class:`~gm.core.engine.RuleViolation` for a :class:`BwError`: its message (a msgid the shell
    translates in the reader's language), rule ID and BW-26 code (``RuleError.code``), so the core's generic order
    API (``POST /api/games/<id>/orders/``) answers with the same code, rule and message as the module's own."""
    return RuleViolation([RuleError(exc.message, field=exc.field or "__all__", rule=exc.rule, params=dict(exc.params),
                                    code=exc.code)])


@dataclass
class Ev:
    """An engine event: ``kind`` (``bw.*``), ``data`` (JSON, BW-25b: ``event`` plus names, card slugs, numbers),
    and ``to``: ``"public"``, ``"master"`` or a seat id (string) for a private line."""

    kind: str
    data: dict = field(default_factory=dict)
    to: str = "public"


def deck_of(data: Mapping[str, Any], card: str) -> str:
    """The home deck of ``card`` by the game data: ``night``, ``day`` or ``special`` (BW-1)."""
    return str(data["cards"][card]["deck"])


def team_of(state: Mapping[str, Any], sid: str) -> str:
    """The team (``vampires``/``werewolves``) of seat ``sid`` (BW-3)."""
    return TEAM_OF[state["entities"][sid]]


def hand_count_view(state: Mapping[str, Any]) -> dict[str, int]:
    """Seat id → number of cards in hand (public, BW-25)."""
    return {sid: len(cards) for sid, cards in state.get("hands", {}).items()}


def view(state: Mapping[str, Any], *, sees_everything: bool, seat: str | None = None) -> dict:
    """What a viewer may read of the state (BW-25): everything for the master and after the end; otherwise the
    public table (seat ring, phase, direction, starter, turns done, who is to move and the open step's kind and
    actors, DNA, markers, hand counts, deck counts, the discard pile, confessions) and, for a player, his own hand."""
    if sees_everything:
        return dict(state)
    step = state.get("step") or {}
    public: dict[str, Any] = {
        key: state.get(key) for key in ("order", "names", "dna", "curse", "chains", "tranq", "confessed", "discard",
                                         "phase", "direction", "starter", "turns_done", "to_move", "extra_turn",
                                         "turn_no", "over", "winner", "winners")
    }
    public["hand_counts"] = hand_count_view(state)
    public["deck_counts"] = {k: len(v) for k, v in (state.get("decks") or {}).items()}
    public["step"] = {"kind": step.get("kind"), "actors": list(step.get("actors") or [])} if step else None
    if step.get("kind") == "reaction":
        public["step"].update({k: step.get(k) for k in ("attacker", "target", "card")})
    if seat is not None and seat in (state.get("hands") or {}):
        public["hand"] = list(state["hands"][seat])
        public["seat"] = seat
    return public


def own_seat_data(data: Mapping[str, Any]) -> dict:
    """What a player reads of his own seat: his entity, team and what he was shown (BW-3c, BW-4, BW-20)."""
    return {k: v for k, v in data.items() if k in ("entity", "team", "learned")}
