"""The WebSocket protocol: every client command and server event, validated by pydantic.

A client sends JSON commands, each with ``seq``, a number it raises by one or
more with every command on its connection; a command whose ``seq`` is not
higher than the last one is stale or a duplicate and is refused. Every number
of a command (``seq``, ``version``, ``seat``) is a JSON integer: ``"7"``, ``7.0``,
``1e2`` and ``true`` are refused, naming the field. Commands that
act on the game also carry ``version``, the table version the player saw; when
the table has moved on since, the command is stale and refused. Every refusal
is an ``error`` event with the reason, and changes nothing; so is a message
that is not JSON, or is nested too deeply to read (arrays in arrays…), and the
connection stays open.

The server sends events, each with its own ``seq`` (1, 2, 3, … on each
connection) and, for state events, the table's ``version``. An ``error``
event may carry a ``code``: ``rate_limited`` (too many messages from one
client: the command was not carried out), ``not_found`` (no such table, or
it has closed), ``stale`` (a duplicate ``seq`` or an old ``version``).

The table's state: a connection is first sent the whole of it (``state``: the table's ``info``
and its seat's ``view``), and after that only what changed (``delta``: the fields of ``info``
and ``view`` that changed, a list that grew as its new end, such as the history's new events),
each naming the version it applies to (``base``). A client whose version is not ``base`` sends
``sync`` and is sent a whole ``state`` again; so is a connection whose seat changed, and every
new connection (a reconnect). The history goes as facts (``view.events``), not as text.

Seats: ``join`` takes one under a name nobody else at the table goes by;
``leave`` gives one's seat up (before the start it is emptied and its token
stops working; after, a bot of the table's level plays it) and the connection
watches from then on.

The host (``TableInfo.host_seat``: the creator; at a table made without a
name, the first player to sit) alone may ``start`` the table, ``add_bot`` and
``remove_seat`` (a bot's, or a player's, who cannot sit there again) before the game starts, and
``kick`` a player who is away after it; any
other player is refused (``error``: "only the table's host (seat 0) can …").
When the host leaves before the start, the role passes to the first player
still seated.

The next hand: at the end of a hand each player sends ``next_hand`` (with a
``version`` from after the hand ended; asks made since do not make it stale).
It is dealt once every player a bot does not play for (connected or not) has
asked, or ``TableInfo.next_hand_after`` seconds after the first ask (a table
option; 0: only once everyone has). Until then ``TableInfo.ready`` lists the
seats that asked and ``TableInfo.next_hand_at`` is when the countdown deals
(Unix seconds); asking twice is refused. A lone player at a table of bots is
dealt at once. The asks are stored: a restart keeps them and the countdown.
"""

from __future__ import annotations

import json
from operator import not_
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from ...actions import ActionKind
from ...i18n import Msg, Parts, msg, render, validation_reason
from ..accounts.names import MAX_NAME, RAW_FACTOR
from .chat import MAX_TEXT, Emoji, Kind, Phrase

MAX_MESSAGE = 4096  # bytes in one client message
# every bot level, weakest first (the ladder; which a table offers: ladder.levels_for)
BotLevel = Literal["random", "greedy", "heuristic", "learned", "search", "agent"]
# ("agent": the trained agent a server may offer, table/agent.py)
BOT_LEVELS: tuple[BotLevel, ...] = ("random", "greedy", "heuristic", "learned", "search", "agent")


class _Command(BaseModel):
    # strict: a number is a JSON integer ("7", 7.0 and true are refused, not converted)
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    seq: int = Field(ge=1, le=2**53)


class Hello(_Command):
    """Open a connection: with a seat token, act for that seat; without, watch; ``lang`` (a
    language tag, "vi" or "en") is the language its error events are said in."""

    type: Literal["hello"]
    token: str | None = Field(default=None, min_length=8, max_length=128)
    lang: str | None = Field(default=None, max_length=35)  # "vi", "en": the errors' language


class Join(_Command):
    """Take an empty seat (``seat`` None: the first empty one) under a name (NFC-normalised; at
    most MAX_NAME characters then, and not one another seat goes by, whatever the case)."""

    type: Literal["join"]
    name: str = Field(min_length=1, max_length=MAX_NAME * RAW_FACTOR)
    seat: int | None = Field(default=None, ge=0, le=7)


class AddBot(_Command):
    """Seat a bot (``level`` None: the table's bot level)."""

    type: Literal["add_bot"]
    seat: int | None = Field(default=None, ge=0, le=7)
    level: BotLevel | None = None


class RemoveSeat(_Command):
    """The host empties a seat before the game starts: a bot's, or a player's (who then
    cannot sit at this table again)."""

    type: Literal["remove_seat"]
    seat: int = Field(ge=0, le=7)


class Leave(_Command):
    """Give up one's seat: before the start it becomes empty; after, a bot plays it."""

    type: Literal["leave"]


class Back(_Command):
    """Take back a seat one left after the start (``seat`` None: the first such seat) from the
    bot that plays it: only its owner may (the identity of the browser's session)."""

    type: Literal["back"]
    seat: int | None = Field(default=None, ge=0, le=7)


class Start(_Command):
    type: Literal["start"]


class PlayMove(_Command):
    """A play (``5s 5h``), ``pass``, or any other action the rules ask (``claim dragon``)."""

    type: Literal["play"]
    version: int = Field(ge=0)
    move: str = Field(min_length=1, max_length=200)


class Hint(_Command):
    type: Literal["hint"]


class NextHand(_Command):
    type: Literal["next_hand"]
    version: int = Field(ge=0)


class Ping(_Command):
    type: Literal["ping"]


class Sync(_Command):
    """Ask for the whole state again (a ``delta`` came for a version the client does not hold)."""

    type: Literal["sync"]


class Kick(_Command):
    """The host gives the seat of a player who is away (a bot plays for them: the table's
    ``away_timeout`` passed) to a bot for the rest of the table; that player cannot take it
    back, nor sit at the table again."""

    type: Literal["kick"]
    seat: int = Field(ge=0, le=7)


class Say(_Command):
    """A seated player says a canned phrase (``chat.PHRASES``: its key, each reader sees it
    in their own language)."""

    type: Literal["say"]
    phrase: Phrase


class React(_Command):
    """A seated player reacts with one of ``chat.EMOJI``."""

    type: Literal["react"]
    emoji: Emoji


class Talk(_Command):
    """A seated player's own words: at a private table only (``chat.clean_text``)."""

    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=MAX_TEXT * RAW_FACTOR)


Command = Annotated[Hello | Join | AddBot | RemoveSeat | Leave | Back | Start | PlayMove | Hint
                    | NextHand | Ping | Sync | Kick | Say | React | Talk,
                    Field(discriminator="type")]
_COMMAND: TypeAdapter[Command] = TypeAdapter(Command)


class ProtocolError(ValueError):
    """A message the server cannot accept; ``reason`` is the English of what is sent back,
    ``message`` the same as a catalogue message (:meth:`say` puts it in a language)."""

    def __init__(self, message: Msg, ref: int | None = None) -> None:
        super().__init__(render(message))
        self.reason = render(message)
        self.message = message
        self.ref = ref

    def say(self, lang: str) -> str:
        return render(self.message, lang)


def parse_command(raw: str | bytes) -> Command:
    """Validate one client message, raising :class:`ProtocolError` with a reason."""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > MAX_MESSAGE:
        raise ProtocolError(msg("err.proto.too_large", size=size, most=MAX_MESSAGE))
    try:
        data = json.loads(raw)
    except RecursionError:  # arrays or objects inside one another deeper than json reads
        raise ProtocolError(msg("err.proto.too_deep")) from None
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError(msg("err.proto.not_json")) from None
    ref = seq_of(data)
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError(msg("err.proto.not_command"), ref)
    try:
        return _COMMAND.validate_python(data)
    except ValidationError as exc:
        raise ProtocolError(_describe(exc), ref) from None


def seq_of(data: Any) -> int | None:
    """The ``seq`` of a message read as JSON, when it is an integer (a refusal's ``ref``);
    ``true`` is not one, though Python counts bools as ints."""
    seq = data.get("seq") if isinstance(data, dict) else None
    return seq if type(seq) is int else None


def _describe(exc: ValidationError) -> Msg:
    """What is wrong with a command (pydantic's own words for a bad value in the connection's
    language when the catalogue knows them: ``validation_reason``)."""
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(p) for p in err["loc"][1:] if p != "type") or "message"
        if err["type"] == "union_tag_invalid":
            parts.append(msg("err.proto.unknown_type", types=", ".join(COMMAND_TYPES)))
        elif err["type"] == "extra_forbidden":
            parts.append(msg("err.proto.extra", field=repr(where)))
        else:
            parts.append(msg("err.proto.field", where=where, error=validation_reason(err)))
    return msg("err.proto.bad", parts=Parts(tuple(parts)))


COMMAND_TYPES = ("hello", "join", "add_bot", "remove_seat", "leave", "back", "start", "play",
                 "hint", "next_hand", "ping", "sync", "kick", "say", "react", "chat")


# ---------------------------------------------------------------------- server events
class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seq: int = 0  # set per connection when sent (see event_body and with_seq)


_NO_SEQ = '{"seq":0,'


def event_body(event: _Event) -> str:
    """The event as JSON without its ``seq`` (serialised once, sent to many connections)."""
    text = event.model_dump_json()
    assert text.startswith(_NO_SEQ), "seq is the first field of every event"
    return text[len(_NO_SEQ):]


def with_seq(seq: int, body: str) -> str:
    """The JSON text of an event whose :func:`event_body` is ``body``, numbered ``seq``."""
    return f'{{"seq":{seq},{body}'


class SeatInfo(BaseModel):
    seat: int
    name: str | None
    kind: Literal["empty", "human", "bot"]
    level: str | None = None
    connected: bool = False
    bot_playing: bool = False  # a bot plays for an absent player
    account: bool = False  # a player's seat held by an account under its name (else a guest's)


class TableTitle(BaseModel):
    """What a name the room made for a table says (tablelog/names.py), for a page to say it in
    its reader's words: ``of`` a player's table, a ``quick`` match's (of ``family``), or a
    ``table`` of nobody in particular (a page names it for the people at it)."""

    kind: Literal["of", "quick", "table"]
    player: str | None = None
    family: str | None = None


class TableInfo(BaseModel):
    id: str
    name: str
    title: TableTitle | None = None  # None: a name its creator gave, said as it is
    private: bool = False  # unlisted: joinable by its link only
    seed: int | None = None  # a practice table's fixed seed (None: the server's secret deals)
    bot_level: str = "heuristic"  # the level of the bots added to this table
    # the host's seat (the creator's, or the first to sit): the host alone starts the table,
    # seats bots and removes seats
    host_seat: int | None = None
    turn_deadline: float | None = None  # Unix seconds when the turn timer runs out (None: no timer)
    # once a player has asked for the next hand, the others' time to ask (0: no countdown)
    next_hand_after: float
    ready: list[int] = []  # the seats whose players asked for the next hand (the hand is over)
    next_hand_at: float | None = None  # Unix seconds when the countdown deals (None: none runs)
    paused: bool = False  # no new hands are dealt: no human is connected
    status: Literal["open", "playing"]
    rules: str
    options: dict[str, Any]
    players: int
    seats: list[SeatInfo]
    hand_no: int
    totals: list[int]
    first_places: list[int]
    records: int
    away_timeout: float
    turn_timer: float


class ChopView(BaseModel):
    """One chop a payment is for: ``chopper`` beat ``owner``'s ``target`` with ``bomb``."""

    chopper: int
    owner: int
    target: str  # the chopped play's text
    bomb: str  # the chopping play's text
    bomb_shape: str  # its shape ("quad", "chain", …) and ranks, to name it
    bomb_ranks: int
    units: int  # what the target was worth


class PaymentView(BaseModel):
    """One payment of the hand (public): who pays whom, how many units, and the facts of what
    for (``item``: chop, chain, place, stake, cards, two, bombs, bomb, no_play, cong, instant),
    never the record's English. ``at``: how many actions of the history were made then.
    ``words``: the payment in a sentence in the connection's language, as the terminal says it
    (:func:`tienlen.paywords.payment_line`, "you" being the view's seat; its cards as card text,
    ``2h``, for the screen to draw), the line the page shows."""

    payer: int
    payee: int
    units: int
    kind: str
    item: str
    cards: str = ""  # the two or the bomb still held
    count: int = 0  # bombs or cards left
    places: list[int] = []  # the payer's and the payee's places (0 first)
    win: str = ""  # the instant win
    chops: list[ChopView] = []
    at: int = -1
    words: str = Field(default="", exclude_if=not_)  # left out of the JSON when not worded


def _none(value: object) -> bool:
    return value is None


def _no_flag(value: object) -> bool:
    return not value


def _no_count(value: int) -> bool:
    return value == 0


# What a seat is asked: the kind of the engine's decision (tienlen.turns.Kind, the same values;
# tests/web/test_page_turns.py holds them equal), said by the page in its own words
# (web.prompt.<kind>): a chop out of turn (a free chop, §11), an instant win to claim or decline,
# and in trading a set of cards to offer, an offer to answer, an answer to accept or refuse
# (settle), or the cards to return to the president. A play in turn is no prompt (None).
Prompt = Literal["chop", "free_chop", "claim", "offer", "answer", "settle", "return"]
# Every kind of decision a seat is asked: a play in turn, or a prompt
DecisionKind = Literal["play", Prompt]


class ChoiceView(BaseModel):
    """One button of a decision: ``move`` is the text the page sends back, as it is, or with
    the cards the player selected after it (``cards``: ``answer 0`` + ``9h Tc``); ``kind``,
    ``other`` and ``win`` are what the page says it by (``move.<kind>``, or
    ``web.decision.<kind>`` for one made with the selected cards)."""

    move: str
    kind: ActionKind
    other: int | None = None  # the other seat of a trade or a return
    win: str | None = None  # the instant win claimed
    cards: bool = False  # made with the selected cards, written after ``move``
    count: int = 0  # how many cards to select (0: any number)


class DecisionView(BaseModel):
    """What a seat is asked now, the page's one source for what it may do: ``kind`` the
    engine's decision kind (``play``: a play in turn; else the prompt), ``out_of_turn`` a chop
    it may make out of turn (Play with the selected cards; letting it go is no move, so no
    Pass), ``may_pass`` a pass among the moves of a play in turn (the Pass button); ``to`` the
    other seat (the offerer to answer, the seat whose answer is to settle, the president to
    return cards to, the player of the play to chop), ``count`` the cards to select (0: none,
    or any number), ``seats`` the seats an offer may go to, and ``choices`` the decision's
    buttons. A fact the decision lacks is left out of the JSON (the page reads it as none)."""

    kind: DecisionKind
    out_of_turn: bool = Field(default=False, exclude_if=_no_flag)
    may_pass: bool = Field(default=False, exclude_if=_no_flag)
    to: int | None = Field(default=None, exclude_if=_none)  # seat 0 is a seat: kept
    count: int = Field(default=0, exclude_if=_no_count)
    seats: list[int] = Field(default_factory=list, exclude_if=_no_flag)
    choices: list[ChoiceView] = Field(default_factory=list, exclude_if=_no_flag)


# The kind of one action of the history: a play, a pass, an action's kind (actions.ActionKind),
# or "answered": another seat's answer to an instant-win call, hidden until every seat answered
EventKind = Literal["play", "pass", "answered"] | ActionKind


class EventView(BaseModel):
    """One action of the history as the seat (or a spectator) may see it, as facts the page
    says in its words (``move.<kind>``): ``cards`` the cards played, offered, answered, given
    or returned (None when there are none, or when this seat may not see them: then
    ``count`` alone says how many), ``other`` the other seat of a trade or an exchange,
    ``win`` the instant win claimed."""

    seat: int
    kind: EventKind
    # a fact the event lacks is left out of the JSON (the page reads a missing field as none)
    cards: str | None = Field(default=None, exclude_if=_none)
    count: int = Field(default=0, exclude_if=_no_count)
    other: int | None = Field(default=None, exclude_if=_none)  # seat 0 is a seat: kept
    win: str | None = Field(default=None, exclude_if=_none)
    timed_out: bool = Field(default=False, exclude_if=_no_flag)  # made by the turn timer
    bot: bool = Field(default=False, exclude_if=_no_flag)  # made by a bot (for an away player too)


class SeatView(BaseModel):
    """What one seat (or a spectator, ``seat`` None) may know of the current hand."""

    seat: int | None
    phase: str
    turn: int | None
    dealer: int
    leader: int
    hand: list[str]
    counts: list[int]
    table: str | None
    table_seat: int | None
    passed: list[bool]
    stacking: bool
    finish_order: list[int]
    # the history as facts, every other seat's hidden cards hidden (its text left the wire:
    # the records hold the words)
    events: list[EventView] = []
    round_starts: list[int] = []  # indices into events where each round begins
    legal: list[str]
    # what this seat is asked now as a prompt (the decision's kind); None when nothing is
    # asked, or a play in turn
    prompt: Prompt | None
    # what this seat is asked now, a play in turn too (None: nothing; a spectator never)
    decision: DecisionView | None = None
    is_over: bool
    scores: list[int]
    revealed: list[list[str]] | None
    instant_win: str | None = None
    payments: list[PaymentView] = []  # every payment so far, chops as they are paid (public)
    # the round's chops not paid yet (chop_pay "chain": paid together when the round ends)
    at_stake: list[ChopView] = Field(default_factory=list, exclude_if=_no_flag)


class Welcome(_Event):
    type: Literal["welcome"] = "welcome"
    table: str
    seat: int | None
    token: str | None = None
    # the seats this connection's identity left after the start, a bot playing them: its to
    # take back (the ``back`` command); left out of the JSON when there are none
    back: list[int] = Field(default_factory=list, exclude_if=_no_flag)
    # the host removed or kicked this connection's identity: it may only watch this table
    barred: bool = Field(default=False, exclude_if=_no_flag)


class State(_Event):
    type: Literal["state"] = "state"
    version: int
    # server time (Unix seconds) of the change this state shows: when the command that made it
    # arrived, or when the bot move that made it was due
    at: float = 0.0
    info: TableInfo
    view: SeatView | None


class Tail(BaseModel):
    """A list that changed at its end: its first ``keep`` items stay, ``add`` follow them."""

    model_config = ConfigDict(extra="forbid")
    keep: int = Field(ge=0)
    add: list[Any]


class Changes(BaseModel):
    """The fields of a model (``TableInfo``, ``SeatView``) that changed, each named as the
    model names it: ``set`` holds a field's new value whole, ``tail`` a list field's new end."""

    model_config = ConfigDict(extra="forbid")
    set: dict[str, Any] = Field(default_factory=dict, exclude_if=_no_flag)
    tail: dict[str, Tail] = Field(default_factory=dict, exclude_if=_no_flag)

    def names(self) -> frozenset[str]:
        return frozenset({*self.set, *self.tail})


class Delta(_Event):
    """What changed for this connection since the state of version ``base`` it was sent (a
    ``state``, or a ``delta`` made on one): after its first ``state`` a connection is sent
    deltas, each holding only what its seat may know. A client that does not hold version
    ``base`` sends ``sync`` and is sent a whole ``state``. ``base`` equals ``version`` when
    only something outside the log changed (who is connected, the clock)."""

    type: Literal["delta"] = "delta"
    version: int
    base: int
    at: float = 0.0  # as State.at
    info: Changes | None = Field(default=None, exclude_if=_none)
    view: Changes | None = Field(default=None, exclude_if=_none)

    @model_validator(mode="after")
    def _fields_named(self) -> Delta:
        for part, model in ((self.info, TableInfo), (self.view, SeatView)):
            unknown = part.names() - set(model.model_fields) if part is not None else set()
            if unknown:
                raise ValueError(f"{model.__name__} has no field {', '.join(sorted(unknown))}")
        return self


class Error(_Event):
    type: Literal["error"] = "error"
    reason: str
    ref: int | None = None
    code: str | None = None  # "rate_limited", "not_found", ... (None: a refusal by the rules)


class HintEvent(_Event):
    """A hint for the connection's seat: the move (``pass`` or its cards) and why, in the
    connection's language (None: the pool failed and the first legal move stands in)."""

    type: Literal["hint"] = "hint"
    move: str
    reason: str | None = None
    ref: int | None = None


class TimedOut(_Event):
    """Told to a player's own connections: their turn timer ran out and ``move`` was made for
    them (``reason``: that, in the connection's language)."""

    type: Literal["timed_out"] = "timed_out"
    seat: int
    move: str
    reason: str


class Pong(_Event):
    type: Literal["pong"] = "pong"
    ref: int | None = None


class ChatEvent(_Event):
    """Something a seat said: a phrase (``phrase``: its key, ``chat.phrase.<key>`` in the
    reader's language), a reaction (``emoji``) or free text (``text``, at a private table: the
    page shows it as text). Not sent to a player who blocked the one who said it."""

    type: Literal["chat"] = "chat"
    seat: int
    name: str  # the seat's name when it was said
    kind: Kind
    phrase: str | None = Field(default=None, exclude_if=_none)
    emoji: str | None = Field(default=None, exclude_if=_none)
    text: str | None = Field(default=None, exclude_if=_none)
    at: float  # server time, Unix seconds


class Removed(_Event):
    """Told to everyone at the table: the host removed the player at ``seat`` before the start
    (``how`` "removed": the seat is empty) or kicked them while away (``how`` "kicked": a bot
    plays the seat for the rest of the table); ``name`` the player's."""

    type: Literal["removed"] = "removed"
    seat: int
    name: str
    how: Literal["removed", "kicked"]


Event = Welcome | State | Delta | Error | HintEvent | TimedOut | Pong | ChatEvent | Removed
