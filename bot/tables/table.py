"""A table in a channel: who sits where, who waits, the match in play, and who may do what.

This is plain state with the rules of the room (S.11-S.18 and RULES.md §3): it checks every
request and either changes itself or raises `TableError` with a message a member can read.
The manager (manager.py) adds the locks, persistence, timers and computer players around it.

Seats are numbered as the engine numbers them: north 0, east 1, south 2, west 3; north and
south are partners (side 0), east and west the other side.

A table may instead play one of the other games of the rule books (`bot.engine.variants`): it
then seats exactly the variant's number of players, named "seat 1" to "seat 7" unless they are
four, deals without a cut for partners, and plays one game of the variant as its match
(`variant_match`; `match` stays None, so the four-handed paths never see it).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import asdict, dataclass, field
from typing import Any, cast

from bot.engine.actions import NUMBER_WORDS
from bot.engine.commitment import deal_identity, new_seed, pack_order, shuffled_pack
from bot.engine.cutting import Cut, cut_for_partners, cut_for_table, who_goes_out
from bot.engine.deal import Deal, HandResult
from bot.engine.errors import EuchreError
from bot.engine.match import Match, MatchView
from bot.engine.quoting import QuotesNames, quoted
from bot.engine.rules import Options, options_from_dict
from bot.engine.variants import Variant, VariantDeal, VariantMatch, VariantMatchView
from bot.engine.variants.rules import TITLES, variant_from_options
from bot.engine.variants.scoring import VariantResult

SEAT_NAMES = ("north", "east", "south", "west")
SEATS = 4
MAX_MEMBERS = 6  # at most six belong to a table (S.12)
LEVELS = ("easy", "standard", "expert")
DEFAULT_LEVEL = "expert"
TIMEOUT_TAKEOVER = 2  # time-outs in a row before a computer holds the seat

# When a member is pinged on their turn (the table's choice; a member's own setting wins).
PING_EVERY = "every"  # at once, every turn
PING_AFTER = "after"  # after a wait (the default: players who are quick are not disturbed)
PING_NEVER = "never"
PING_MODES = (PING_EVERY, PING_AFTER, PING_NEVER)

SEATING = "seating"  # before the first rubber, or between rubbers
PLAYING = "playing"
CLOSED = "closed"


class TableError(EuchreError):
    """A request the table refuses; the message is shown to the member as it is."""


class PositionMoved(TableError):
    """A member's move that waited while the game moved on (a computer made the move for them
    when their turn timed out): it is refused, not applied to where the game went."""


class NotAtThisTable(TableError):
    """A refusal because the member has no place at this channel's table (or there is none):
    they may have one at another table of the server, which the answer then names."""


class NamingTableError(QuotesNames, TableError):
    """A refusal that names a member or the table's league (escaped where Discord shows it)."""


class LeagueTableError(NamingTableError):
    """A refusal that names the table's league."""


@dataclass
class Occupant:
    """Someone at a seat or waiting for one.

    Attributes:
        user_id: the Discord user id; computer players have negative ids.
        name: the name shown at the table.
        is_bot: a computer player.
        level: a computer player's level.
        held_for: the member whose seat this computer holds after time-outs (`/table back`).
        substitute: playing for someone who left this rubber (S.18).
    """

    user_id: int
    name: str
    is_bot: bool = False
    level: str = DEFAULT_LEVEL
    held_for: int | None = None
    substitute: bool = False

    @property
    def mention(self) -> str:
        return self.name if self.is_bot else f"<@{self.user_id}>"


def seat_label(seat: int, seats: int = SEATS) -> str:
    """A seat's name: north, east, south, west at a table of four, else `seat 1` to `seat 7`."""
    return SEAT_NAMES[seat] if seats == SEATS else f"seat {seat + 1}"


def parse_seat(text: str | int, seats: int = SEATS) -> int:
    """A seat number from what a member typed: `north|east|south|west` (or `n`, or 0-3) at a
    table of four; `seat 1` to `seat N` (or the plain number, or 0 to N-1 given as a number)
    at a table of any other size. The refusal names the seats the table has."""
    if isinstance(text, int) and 0 <= text < seats:
        return text
    name = str(text).strip().lower()
    if seats == SEATS:
        if name in SEAT_NAMES:
            return SEAT_NAMES.index(name)
        if name[:1] in ("n", "e", "s", "w") and len(name) == 1:
            return "nesw".index(name)
        raise TableError(f"unknown seat {quoted(str(text))}: choose north, east, south or west")
    number = name.removeprefix("seat").strip()
    if number.isascii() and number.isdigit() and 1 <= int(number) <= seats:
        return int(number) - 1
    raise TableError(
        f"unknown seat {quoted(str(text))}: this table has {seats} seats, "
        + ("seat 1 or seat 2" if seats == 2 else f"seat 1 to seat {seats}")
    )


def bot_occupant(user_id: int, level: str, held_for: int | None = None) -> Occupant:
    """A computer player, named by its level: the table message shows the seat it holds.

    Args:
        user_id: a negative id no one else at the table has (`Table.new_computer_id`).
    """
    if level not in LEVELS:
        raise TableError("unknown level: choose easy, standard or expert")
    return Occupant(
        user_id=user_id,
        name=f"Computer ({level})",
        is_bot=True,
        level=level,
        held_for=held_for,
    )


CUT_LOWEST = "cut lowest"  # more than four at the first rubber: the four highest cuts play (S.11)
MOST_RUBBERS = "most rubbers"  # played the most rubbers in a row, so makes room (S.15)


@dataclass(frozen=True)
class SatOut:
    """A member who sits out a rubber at its start, and why (`CUT_LOWEST` or `MOST_RUBBERS`)."""

    user_id: int
    name: str
    why: str


@dataclass
class Substitution:
    """A seated member's request to hand the seat to another for this rubber (S.18)."""

    seat: int
    user_id: int
    name: str
    approvals: set[int] = field(default_factory=set)
    # Which request this is at the table (from 1): its buttons name it, so a button of a
    # request answered or replaced is known as such.
    number: int = 0
    # The named member agreed to take the seat: no one is seated without agreeing.
    accepted: bool = False
    # The name of the player who asked: the seat may be a computer's by the time it is taken
    # (they left meanwhile), and the computer handed nothing over.
    asked_by: str | None = None


class Table:
    """One table: seats, waiting list, the match, and the room's rules.

    Args:
        table_id: the storage id.
        guild_id, channel_id: where the table is.
        host: the member who created it, seated at north.
        options: the rules it plays by.
        variant: the other game it plays instead (its rules and number of players), if any.
    """

    def __init__(
        self,
        table_id: int,
        guild_id: int,
        channel_id: int,
        host: Occupant,
        options: Options,
        variant: Variant | None = None,
    ) -> None:
        self.id = table_id
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.host_id = host.user_id
        self.options = options
        self.variant = variant
        self.seat_count = variant.players if variant else SEATS
        self.seats: list[Occupant | None] = [host] + [None] * (self.seat_count - 1)
        self.waiting: list[Occupant] = []
        self.status = SEATING
        self.match: Match | None = None
        self.variant_match: VariantMatch | None = None  # a variant table's game
        self.match_no = 0  # matches started at this table
        self.match_id: int | None = None  # the match's id in storage
        self.first_dealer = 0
        self.decks: list[list[str]] = []  # the current match's decks, deal by deal
        self.seeds: list[str | None] = []  # each deal's secret seed (None: dealt before seeds)
        self.actions: list[tuple[int, str]] = []  # the current match's actions, in order
        self.consecutive: dict[int, int] = {}  # rubbers played in a row, per member (S.15)
        self.timeouts = [0] * self.seat_count
        self.flagged = False  # a computer or a substitute played this match
        # Seats whose member left this match: by leaving, to a substitute, or by timing out until
        # a computer took the seat (even if he came back): what a league's rule for leavers reads.
        self.left_seats: set[int] = set()
        # Seats whose member the host removed this match (/table kick): a host's choice decides
        # no league match, so such a match is no contest.
        self.removed_seats: set[int] = set()
        # The games of this match (by number, from 0) during which a seat changed hands: a
        # league keeps the others rated when the match ends by its rule for leavers.
        self.changed_games: set[int] = set()
        self.last_cut: list[list[tuple[str, str]]] = []  # the cards cut at the last start
        self.sat_out: list[SatOut] = []  # who sat out at the last start, and why
        self.substitution: Substitution | None = None
        self.substitutions_asked = 0  # substitution requests made at this table
        self.message_id: int | None = None  # the current public table message
        self.message_deal: int | None = None  # the deal that message shows
        self.message_match: int | None = None  # ... of which match (None: the current one)
        self.message_finished = False  # it shows that deal as it ended (and stays so)
        # Pings sent to the channel and not deleted yet (the turn's, and any whose delete still
        # waits): a restart deletes those left.
        self.pings: list[int] = []
        # Pings on their way, by the snowflake of the moment each was sent: until its message's id
        # is stored, a ping may be in the channel unknown (the bot stopped, or gave up on the
        # request, before Discord answered), so the channel is looked through after that moment.
        self.pings_sent: list[int] = []
        # The turn's ping as posted: its message, the turn it was for and its text, so a restart
        # in the same turn keeps it (its member was notified once) rather than ping again.
        self.turn_ping: tuple[int, tuple[Any, ...], str] | None = None
        self.turn_timeout: int | None = None  # seconds a turn; None: the bot's setting
        self.ping = PING_AFTER  # when members are pinged on their turn
        self.ping_after: int | None = None  # seconds before a ping; None: the bot's default
        self._held_names: dict[int, str] = {}  # names of members whose seats computers hold
        # The league this table plays for (its matches are stored with it), and its name to
        # show; None for a table that plays for no league.
        self.league_id: int | None = None
        self.league_name: str | None = None
        # Seats kept for named members (a fixture's two pairs): seat -> who may sit there.
        # Empty for an ordinary table.
        self.reserved: dict[int, tuple[int, ...]] = {}
        # Whether members may ask for /hint on their turn (never at a league's table), and the
        # seats given one in each deal of the match (by deal number), marked in its record.
        self.hints = True
        self.hinted: dict[int, set[int]] = {}
        # Why the table closed ("closed by the host", "everyone left"...), once it has.
        self.close_reason: str | None = None
        self._rng: random.Random = random.SystemRandom()

    # -- who is here ----------------------------------------------------------------------

    @property
    def any_match(self) -> Match | VariantMatch | None:
        """The match in play of either kind: the four-handed `match` or the `variant_match`."""
        return self.variant_match if self.variant is not None else self.match

    @property
    def position(self) -> tuple[int, int]:
        """Where the game stands: the match's number and the actions taken in it. A member's
        move carries the position it was made on, so one that waited while the game moved on
        is refused rather than applied to where the game went (`manager.act`)."""
        return (self.match_no, len(self.actions))

    def seat_label(self, seat: int) -> str:
        """The seat's name at this table (`north`, or `seat 5` at a table not of four)."""
        return seat_label(seat, self.seat_count)

    @property
    def max_members(self) -> int:
        """How many may belong to the table: six (S.12), or a variant's seats and two waiting."""
        return MAX_MEMBERS if self.variant is None else self.seat_count + 2

    @property
    def members(self) -> list[Occupant]:
        """Everyone who belongs to the table: humans seated or waiting (not computers)."""
        return [o for o in self.seats if o and not o.is_bot] + self.waiting

    def seat_of(self, user_id: int) -> int | None:
        """The seat a member plays at now (None if not seated, or a computer holds it)."""
        for seat, occupant in enumerate(self.seats):
            if occupant and occupant.user_id == user_id:
                return seat
        return None

    def held_seat_of(self, user_id: int) -> int | None:
        """The seat a computer holds for this member after time-outs, if any."""
        for seat, occupant in enumerate(self.seats):
            if occupant and occupant.held_for == user_id:
                return seat
        return None

    def new_computer_id(self) -> int:
        """A negative id that no computer at the table has: computers move seat when the
        cut reseats the table, so an id cannot be derived from the seat."""
        ids = [o.user_id for o in [*self.seats, *self.waiting] if o and o.user_id < 0]
        return min(ids, default=0) - 1

    def seating_problem(self) -> str | None:
        """What is wrong with who sits where, or None: no member may belong to the table twice
        (two seats, a seat and a seat a computer holds for him, a seat and the waiting line)."""
        places: list[int] = []
        for occupant in self.seats:
            if occupant is not None:
                places.append(occupant.user_id)
                if occupant.held_for is not None:
                    places.append(occupant.held_for)
        places.extend(o.user_id for o in self.waiting)
        seen: set[int] = set()
        for user_id in places:
            if user_id in seen:
                return f"member {user_id} would belong to table {self.id} twice"
            seen.add(user_id)
        return None

    def _renumber_computers(self) -> None:
        """Give computers that share an id (stored before ids were unique) ids of their own."""
        seen: set[int] = set()
        for occupant in [*self.seats, *self.waiting]:
            if occupant is not None and occupant.is_bot:
                if occupant.user_id in seen:
                    occupant.user_id = self.new_computer_id()
                seen.add(occupant.user_id)

    def is_waiting(self, user_id: int) -> bool:
        return any(o.user_id == user_id for o in self.waiting)

    @property
    def full(self) -> bool:
        return all(self.seats)

    @property
    def playing(self) -> bool:
        return self.status == PLAYING

    @property
    def match_word(self) -> str:
        """What the table's match is called: a rubber of three games, or a single game (a
        variant's, or a four-handed table of single games: the jerome and modern presets)."""
        return "rubber" if self.variant is None and self.options.is_rubber else "game"

    def member_name(self, user_id: int) -> str | None:
        """The name of a member of the table: seated, waiting, or whose seat a computer holds."""
        for occupant in self.members:
            if occupant.user_id == user_id:
                return occupant.name
        held = self.held_seat_of(user_id)
        return self._held_names.get(held) if held is not None else None

    def require_host(self, user_id: int, may_manage: bool = False) -> None:
        """Refuse unless the member is the host (or may manage the channel, when allowed),
        naming the host: the role passes on when a host leaves, and no one is told otherwise."""
        if user_id != self.host_id and not may_manage:
            host = self.member_name(self.host_id)
            if host is None:
                raise TableError("only the table's host can do that")
            raise NamingTableError("only the table's host, {}, can do that: ask them", host)

    # -- seating --------------------------------------------------------------------------

    def join(self, user_id: int, name: str, seat: int | None = None) -> str:
        """Take a free seat (the given one, or the first free), or wait in line when four sit.

        Returns:
            "seated" or "waiting".
        """
        if self.seat_of(user_id) is not None or self.is_waiting(user_id):
            raise TableError("you already belong to this table")
        if self.held_seat_of(user_id) is not None:
            raise TableError("a computer is holding your seat: use /table back")
        if len(self.members) >= self.max_members:
            if self.variant is not None:
                raise TableError(f"this table is full: {self.max_members} belong to it already")
            raise TableError("this table is full: six belong to it already (S.12)")
        if self.reserved:
            seat = self._reserved_seat(user_id, seat)
        member = Occupant(user_id, name)
        if self.playing or (self.full and seat is None):
            if seat is not None:
                raise TableError("the seats are taken: join without a seat to wait in line")
            self.waiting.append(member)
            return "waiting"
        if seat is None:
            seat = self.seats.index(None)
        self._check_seat(seat)
        occupant = self.seats[seat]
        if occupant is not None and not occupant.is_bot:
            raise NamingTableError(f"{self.seat_label(seat)} is taken by {{}}", occupant.name)
        # A member may take a computer's seat between rubbers.
        self.seats[seat] = member
        return "seated"

    def _reserved_seat(self, user_id: int, seat: int | None) -> int:
        """The seat a member may take at a table whose seats are kept for named members: the
        one asked for, or the first free one kept for them."""
        mine = [s for s, ids in sorted(self.reserved.items()) if user_id in ids]
        if not mine:
            raise TableError("this table's seats are kept for the players of a fixture")
        if seat is None:
            seat = next((s for s in mine if self.seats[s] is None), mine[0])
        if seat not in mine:
            raise TableError(f"{SEAT_NAMES[seat]} is kept for another player of the fixture")
        return seat

    def leave(self, user_id: int) -> int | None:
        """Leave the table. A seated player leaving mid-rubber is replaced by a computer.

        Returns:
            The seat left, or None when the member was waiting.
        """
        seat = self._leave(user_id)
        if user_id == self.host_id:
            self._pass_host()
        return seat

    def _leave(self, user_id: int) -> int | None:
        """`leave`, but for the host's role."""
        for i, member in enumerate(self.waiting):
            if member.user_id == user_id:
                del self.waiting[i]
                return None
        seat = self.seat_of(user_id)
        if seat is None:
            seat = self.held_seat_of(user_id)
            if seat is None:
                raise NotAtThisTable("you are not at this table")
            computer = self.seats[seat]
            assert computer is not None  # it holds the seat
            computer.held_for = None  # the computer plays on in the seat
            return seat
        if self.playing:
            # The variants have no expert (an expert seat plays them at standard: see
            # bot/tables/computer.py), so the seat is named for how it will play.
            level = DEFAULT_LEVEL if self.variant is None else "standard"
            self.seats[seat] = bot_occupant(self.new_computer_id(), level)
            self.flagged = True
            self.left_seats.add(seat)
            self._seat_changed_hands()
        else:
            self.seats[seat] = None
            self._seat_first_in_line(seat)
        self.consecutive.pop(user_id, None)
        return seat

    def _seat_first_in_line(self, seat: int) -> None:
        """A seat freed while no game is played goes to the first member waiting in line:
        else the table could not start (not every seat taken) while members who belong to it
        wait, each told by Join that they belong already, and a newcomer's join would take
        the seat before them. A fixture's seats are kept for its players, never the line's."""
        if self.waiting and not self.reserved and self.seats[seat] is None:
            self.seats[seat] = self.waiting.pop(0)

    def _pass_host(self) -> None:
        members = self.members
        if members:
            self.host_id = members[0].user_id

    def add_bot(self, seat: int | None, level: str = DEFAULT_LEVEL) -> int:
        """Seat a computer player at the given free seat, or the first free one."""
        if self.playing:
            raise TableError(
                f"computer players join between {self.match_word}s; a game is being played"
            )
        if self.reserved:
            raise TableError("this table's seats are kept for the players of a fixture")
        if seat is None:
            if self.full:
                raise TableError("every seat is taken")
            seat = self.seats.index(None)
        self._check_seat(seat)
        taken = self.seats[seat]
        if taken is not None:
            raise NamingTableError(f"{self.seat_label(seat)} is taken by {{}}", taken.name)
        self.seats[seat] = bot_occupant(self.new_computer_id(), level)
        return seat

    def _check_seat(self, seat: int) -> None:
        """Refuse a seat the table does not have (a table of two has no south)."""
        if not 0 <= seat < self.seat_count:
            raise TableError(
                f"this table has {self.seat_count} seats: leave the seat out to take the first"
                " free one"
            )

    def kick(self, user_id: int) -> int | None:
        """Remove a member (or the computer at a seat, given its negative id)."""
        if user_id == self.host_id:
            raise TableError("the host cannot be kicked; the host can /table leave or /table close")
        for seat, occupant in enumerate(self.seats):
            if occupant and occupant.is_bot and occupant.user_id == user_id:
                if self.playing:
                    raise TableError(
                        f"a computer player stays in its seat until the {self.match_word} ends"
                    )
                self.seats[seat] = None
                self._seat_first_in_line(seat)
                return seat
        if not any(o.user_id == user_id for o in self.members) and (
            self.held_seat_of(user_id) is None
        ):
            raise TableError("that member is not at this table")
        left = self.leave(user_id)
        if left is not None and self.playing:
            self.left_seats.discard(left)
            self.removed_seats.add(left)
        if self.substitution is not None and self.substitution.user_id == user_id:
            # The host removed the member named substitute (from the waiting line): the
            # request naming them is withdrawn, else its offer would seat them all the same.
            self.substitution = None
        return left

    # -- substitutes and computers holding seats ------------------------------------------

    def request_substitute(
        self, user_id: int, sub_id: int, sub_name: str, again: bool = False
    ) -> Substitution:
        """A seated player names a substitute for the rest of the rubber (S.18).

        The substitute sits once the named member accepts and the other human players
        consent (`answer_substitute`, `consent_substitute`); a request replaces any other
        waiting, but not one the same (that seat, that member) unless asked `again` (its
        offer was never shown: the Discord layer knows).

        Returns:
            The request, to be shown to the named member.
        """
        seat = self.seat_of(user_id)
        if seat is None and self.held_seat_of(user_id) is not None:
            # Still the seat's player (S.18 lets him name a substitute): he takes it back first.
            raise TableError(
                "a computer is holding your seat: take it back with /table back, then name"
                " your substitute"
            )
        if seat is None:
            raise TableError("only a seated player can name a substitute")
        if not self.playing:
            raise TableError(
                f"between {self.match_word}s, simply /table leave and let another join"
            )
        self._check_substitute(sub_id, sub_name, user_id)
        waiting = self.substitution
        if waiting is not None and waiting.seat == seat and waiting.user_id == sub_id and not again:
            # Asked again, the member would be pinged again (as often as the player liked),
            # and the consents already given would be set aside for a request the same.
            wants = [] if waiting.accepted else ["their answer on the offer in this channel"]
            if self.substitute_consenters():
                wants.append("the other players' consent")
            raise NamingTableError(
                "you have asked {} already, and the request still waits for "
                + " and ".join(wants or ["the table"]),
                waiting.name,
            )
        self.substitutions_asked += 1
        asking = self.seats[seat]
        self.substitution = Substitution(
            seat,
            sub_id,
            sub_name,
            number=self.substitutions_asked,
            asked_by=asking.name if asking is not None else None,
        )
        return self.substitution

    def _check_substitute(self, sub_id: int, sub_name: str, user_id: int | None = None) -> None:
        if sub_id == user_id or self.seat_of(sub_id) is not None:
            raise TableError("the substitute must be someone not already playing")
        if self.held_seat_of(sub_id) is not None:
            raise NamingTableError(
                "a computer is holding {}'s own seat: they can take it back with /table back,"
                " but cannot play a second seat",
                sub_name,
            )

    def substitute_consenters(self) -> list[int]:
        """The human players whose consent the pending substitution still needs."""
        sub = self.substitution
        if sub is None:
            return []
        return [
            o.user_id
            for s, o in enumerate(self.seats)
            if o and not o.is_bot and s != sub.seat and o.user_id not in sub.approvals
        ]

    def consent_substitute(self, user_id: int, number: int | None = None) -> bool:
        """One of the other three agrees; returns True when the substitute takes the seat.

        Args:
            number: the request the member's button was drawn for (None: whichever waits).
        """
        sub = self.substitution
        if sub is None:
            raise TableError("there is no substitution waiting for consent")
        if number is not None and number != sub.number:
            # Replaced since the member saw it: the consent was for someone else.
            raise NamingTableError(
                "that button was drawn for an earlier request, replaced since: {} is asked now"
                " to take {}'s seat. Press Consent to substitute again to consent to that",
                sub.name,
                sub.asked_by or "a player",
            )
        seat = self.seat_of(user_id)
        if seat is None and self.held_seat_of(user_id) is not None:
            # A seat a computer holds gives no consent: the request does not wait for it.
            raise TableError(
                "a computer is holding your seat, so the request does not wait for your"
                " consent: take your seat back with /table back to have a say"
            )
        if seat is None or seat == sub.seat:
            others = self.seat_count - 1
            players = "player" if others == 1 else f"{NUMBER_WORDS.get(others, others)} players"
            raise TableError(f"only the other {players} can consent to a substitute")
        if user_id in sub.approvals:
            if sub.accepted:
                raise TableError("you have consented already: waiting for the other players")
            raise NamingTableError(
                "you have consented already: waiting for {} to take the seat", sub.name
            )
        sub.approvals.add(user_id)
        return self._seat_if_agreed()

    def answer_substitute(self, user_id: int, match_no: int, number: int, accept: bool) -> bool:
        """The named member takes the seat offered (`accept`) or declines it.

        Args:
            match_no, number: the match and the request the member's button was drawn for.

        Returns:
            True when the substitute takes the seat (every consent given too).

        Raises:
            TableError: the rubber is over, the request was answered or replaced, or the
                member is not the one named.
        """
        sub = self.substitution
        if match_no != self.match_no or not self.playing:
            raise TableError(f"that {self.match_word} is over, so the seat is no longer offered")
        if sub is None or sub.number != number:
            seat = self.seat_of(user_id)
            if seat is not None:
                raise TableError(f"you already play {self.seat_label(seat)} at this table")
            if sub is not None:
                raise TableError("that request was replaced by a newer one: nothing changed")
            raise TableError("that request is no longer open (answered or withdrawn)")
        if user_id != sub.user_id:
            raise NamingTableError(
                "only {} can answer this: the seat was offered to them", sub.name
            )
        if not accept:
            self.substitution = None
            return False
        self._check_substitute(sub.user_id, sub.name)
        sub.accepted = True
        return self._seat_if_agreed()

    def seat_substitute_if_agreed(self) -> bool:
        """Seat the substitute once no consent is wanting any more: a player whose consent the
        request still waited for has left the table, was removed, or has a computer holding
        the seat, so the consents given are all it needs. Returns whether the substitute took
        the seat."""
        return self._seat_if_agreed()

    def _seat_if_agreed(self) -> bool:
        """Seat the substitute once the named member accepted and every consent is given."""
        sub = self.substitution
        if sub is None or not sub.accepted or self.substitute_consenters():
            return False
        self._seat_substitute()
        return True

    def _seat_substitute(self) -> None:
        sub = self.substitution
        assert sub is not None  # called once a substitution is agreed
        leaving = self.seats[sub.seat]
        self.waiting = [w for w in self.waiting if w.user_id != sub.user_id]
        self.seats[sub.seat] = Occupant(sub.user_id, sub.name, substitute=True)
        if leaving is not None:
            self.consecutive.pop(leaving.user_id, None)
        self.flagged = True
        self.left_seats.add(sub.seat)
        self._seat_changed_hands()
        self.substitution = None
        self.timeouts[sub.seat] = 0

    def take_over(self, seat: int) -> None:
        """A computer holds a timed-out member's seat until `/table back`."""
        occupant = self.seats[seat]
        if occupant is None or occupant.is_bot:
            return
        computer = bot_occupant(self.new_computer_id(), "standard", held_for=occupant.user_id)
        computer.name = f"{occupant.name} (computer)"
        self.seats[seat] = computer
        self._held_names[seat] = occupant.name
        self.flagged = True
        self.left_seats.add(seat)
        self._seat_changed_hands()

    def back(self, user_id: int) -> int:
        """A member takes back the seat a computer held for him."""
        seat = self.held_seat_of(user_id)
        if seat is None:
            raise NotAtThisTable("no computer is holding a seat of yours here")
        if self.seat_of(user_id) is not None:
            raise TableError("you play another seat now: one seat each")
        self.seats[seat] = Occupant(user_id, self._held_names.pop(seat, "player"))
        self.timeouts[seat] = 0
        self._seat_changed_hands()
        return seat

    def _seat_changed_hands(self) -> None:
        """A seat changed hands during the game being played (the first not finished)."""
        self.changed_games.add(len(self.match.games) if self.match else 0)

    # -- the match ------------------------------------------------------------------------

    def start(
        self, keep_seats: bool = False, rng: random.Random | None = None
    ) -> list[list[tuple[str, str]]]:
        """Start a rubber (or game): cut out waiting candidates, cut for partners and deal.

        Returns:
            The rounds of cards cut, each as (name, card), to show the table.
        """
        if self.playing:
            raise TableError("a game is already being played here")
        for seat in range(self.seat_count):  # a table stored with a seat free and a line
            self._seat_first_in_line(seat)
        if self.variant is not None:
            return self._start_variant(rng or self._rng)
        if not self.full:
            raise TableError(
                "four players must sit before the game starts: /table join or /table addbot"
            )
        rng = rng or self._rng
        # A fixture's pairs sit as partners: no cut for partners.
        keep_seats = keep_seats or bool(self.reserved)
        names = {o.user_id: o.name for o in [*self.seats, *self.waiting] if o}
        cuts: list[Cut] = []
        self.sat_out = []
        if self.waiting:
            cuts.extend(self._cut_out(rng))
        if not keep_seats:
            by_id = {o.user_id: o for o in self.seats if o}
            table_cut = cut_for_partners(list(by_id), rng, self.options.lowest_rank)
            self.seats = [by_id[cast(int, user_id)] for user_id in table_cut.seats]
            cuts.extend(table_cut.cuts)
            first_dealer = table_cut.dealer
        else:
            first_dealer = rng.randrange(SEATS)
        self.last_cut = [[(names[cast(int, p)], card) for p, card in cut.cards] for cut in cuts]
        self.begin_match(first_dealer)
        return self.last_cut

    def _start_variant(self, rng: random.Random) -> list[list[tuple[str, str]]]:
        """Start a variant's game: members waiting take computers' seats, and the first dealer
        is drawn. The seats stay as they are: the variants define no cut for partners (the
        six-handed partnerships alternate round the table as the players sit)."""
        assert self.variant is not None
        for seat, occupant in enumerate(self.seats):
            if self.waiting and occupant is not None and occupant.is_bot:
                self.seats[seat] = self.waiting.pop(0)
        if not self.full:
            raise TableError(
                f"{self.variant.name} is played by {self.seat_count} here: every seat must be"
                " taken before the game starts (/table join or /table addbot)"
            )
        self.sat_out = []
        self.last_cut = []
        self.begin_match(rng.randrange(self.seat_count))
        return self.last_cut

    def _cut_out(self, rng: random.Random) -> list[Cut]:
        """Make room for the members waiting, and note in `sat_out` who sits out and why.

        Computer players give up their seats first. Then, when nobody has yet played a rubber
        in a row here (the table's first rubber), everyone cuts and the four highest play
        (S.11); otherwise those who played the most rubbers in a row go out, the lowest cut
        among equals (S.15).
        """
        bots = [s for s, o in enumerate(self.seats) if o and o.is_bot]
        for seat in bots[: len(self.waiting)]:
            self.seats[seat] = self.waiting.pop(0)
        if not self.waiting:
            return []
        seated = [o for o in self.seats if o is not None]
        if not any(self.consecutive.get(o.user_id, 0) for o in seated + self.waiting):
            by_id = {o.user_id: o for o in seated + self.waiting}
            _, out, cuts = cut_for_table(list(by_id), rng, self.options.lowest_rank)
            why = CUT_LOWEST
        else:
            counts = {o.user_id: self.consecutive.get(o.user_id, 0) for o in seated}
            out, cuts = who_goes_out(
                cast(dict[Hashable, int], counts), len(self.waiting), rng, self.options.lowest_rank
            )
            why = MOST_RUBBERS
        coming = [o for o in self.waiting if o.user_id not in out]
        going = [o for o in seated if o.user_id in out]
        for leaving in going:
            self.seats[self.seats.index(leaving)] = coming.pop(0)
            self.consecutive[leaving.user_id] = 0
        # Those who sit out wait in the order they go out (by their cut, S.12).
        self.waiting = [o for o in self.waiting if o.user_id in out] + going
        order = {user_id: i for i, user_id in enumerate(out)}
        self.waiting.sort(key=lambda o: order.get(o.user_id, len(order)))
        self.sat_out = [SatOut(o.user_id, o.name, why) for o in self.waiting]
        return cuts

    def begin_match(self, first_dealer: int) -> None:
        """Deal the first hand of a new match with the current seats."""
        self.status = PLAYING
        self.match_no += 1
        self.match_id = None
        self.first_dealer = first_dealer
        self.decks, self.actions, self.seeds = [], [], []
        self.hinted = {}
        self.timeouts = [0] * self.seat_count
        self.flagged = any(o.is_bot or o.substitute for o in self.seats if o)
        self.left_seats = set()
        self.removed_seats = set()
        self.changed_games = set()
        if self.variant is not None:
            self.variant_match = VariantMatch(
                self.variant, first_dealer, deal_factory=self._new_variant_deal
            )
        else:
            self.match = Match(self.options, first_dealer, deal_factory=self._new_deal)

    def _new_variant_deal(self, variant: Variant, dealer: int) -> VariantDeal:
        """`_new_deal` for a variant: the seed orders the variant's own pack
        (`shuffled_pack`, bot/engine/commitment.py)."""
        number = len(self.variant_match.deals) if self.variant_match else 0
        if number < len(self.decks):
            deal = VariantDeal.from_deck(variant, dealer, self.decks[number])
            seed = self.seeds[number] if number < len(self.seeds) else None
        else:
            seed = new_seed(self._rng)
            deck = shuffled_pack(seed, variant.pack)
            deal = VariantDeal.from_deck(variant, dealer, deck)
            self.decks.append(deck)
            self.seeds.append(seed)
        if seed is not None:
            deal.seed, deal.deal_id = seed, deal_identity(self.id, self.match_no, number + 1)
        return deal

    def _new_deal(self, options: Options, dealer: int) -> Deal:
        """Deal from the recorded pack when restoring; else draw a secret seed, deal the pack
        order it gives, and keep both (the seed is shown once the deal is over, so anyone can
        check the deal against the commitment shown before it: bot/engine/commitment.py)."""
        number = len(self.match.deals) if self.match else 0
        if number < len(self.decks):
            deal = Deal.from_deck(options, dealer, self.decks[number])
            seed = self.seeds[number] if number < len(self.seeds) else None
        else:
            seed = new_seed()
            deck = pack_order(seed, options.pack, options.joker)
            deal = Deal.from_deck(options, dealer, deck)
            self.decks.append(deck)
            self.seeds.append(seed)
        if seed is not None:
            deal.seed, deal.deal_id = seed, deal_identity(self.id, self.match_no, number + 1)
        return deal

    @staticmethod
    def _deck_of(deal: Deal) -> list[str]:
        """The pack order that `Deal.from_deck` turns back into this deal (J.5 dealing)."""
        eldest = (deal.dealer + 1) % SEATS
        order = [(eldest + k) % SEATS for k in range(SEATS)]
        deck = [deal.dealt[s][i] for s in order for i in (0, 1)]
        deck += [deal.dealt[s][i] for s in order for i in (2, 3, 4)]
        return deck + [deal.turn_up] + list(deal.kitty)

    def act(self, user_id: int, action: str) -> HandResult | VariantResult | None:
        """A seated member's declaration or card; returns the hand's result if it ended one."""
        self._require_any_match()
        return self.act_for_seat(self.seat_for(user_id), action, by_player=True)

    def seat_for(self, user_id: int) -> int:
        """The seat a member plays at now.

        Raises:
            TableError: not seated, or a computer holds the member's seat (say how to get it).
        """
        seat = self.seat_of(user_id)
        if seat is not None:
            return seat
        if self.held_seat_of(user_id) is not None:
            raise TableError("a computer is holding your seat: use /table back first")
        if self.is_waiting(user_id):
            raise TableError(self.waiting_words())
        raise NotAtThisTable("you are not seated at this table")

    def waiting_words(self) -> str:
        """What a member waiting in line is told when asking for a hand or a turn."""
        word = self.match_word
        return (
            f"you wait in line, so you have no hand in this {word}: you play from the next {word}"
        )

    def act_for_seat(
        self, seat: int, action: str, by_player: bool = False
    ) -> HandResult | VariantResult | None:
        match = self._require_any_match()
        if match.to_act != seat:
            raise TableError("it is not your turn")
        deal = match.deal
        result = match.apply(action, seat)
        # The engine takes aliases (`10h`, or naming the turned-down suit for a pass): keep
        # the canonical action it recorded.
        self.actions.append(deal.history[-1])
        if by_player:
            self.timeouts[seat] = 0
        if match.over:
            self._end_match()
        return result

    def _end_match(self) -> None:
        self.status = SEATING
        for occupant in self.seats:
            if occupant and not occupant.is_bot:
                self.consecutive[occupant.user_id] = self.consecutive.get(occupant.user_id, 0) + 1
        # Substitutes and held seats last only for the rubber (S.18), and so does a request.
        self.substitution = None
        for seat, occupant in enumerate(self.seats):
            if occupant and occupant.substitute:
                occupant.substitute = False
            if occupant and occupant.held_for is not None:
                self.seats[seat] = Occupant(occupant.held_for, self._held_names.pop(seat, "player"))

    def _require_any_match(self) -> Match | VariantMatch:
        match = self.any_match
        if not self.playing or match is None:
            raise TableError("no game is being played at this table: the host can /table start")
        return match

    def view_for(self, user_id: int) -> tuple[int, MatchView]:
        """The seat and its view for a member's own hand (four-handed)."""
        if self.variant is not None:
            raise TableError("this table plays a variant: its hands are drawn as such")
        match = self.match
        seat = self.seat_of(user_id)
        if seat is None and match is not None and self.is_waiting(user_id):
            raise TableError(self.waiting_words())
        if seat is None or match is None:
            raise TableError(
                "you are not seated at a game here"
                if match
                else "no game is being played here: the host can /table start"
            )
        return seat, match.view_for(seat)

    def variant_view_for(self, user_id: int) -> tuple[int, VariantMatchView]:
        """The seat and its view for a member's own hand at a variant's table."""
        match = self.variant_match
        seat = self.seat_of(user_id)
        if seat is None and match is not None and self.is_waiting(user_id):
            raise TableError(self.waiting_words())
        if seat is None or match is None:
            raise TableError(
                "you are not seated at a game here"
                if match
                else "no game is being played here: the host can /table start"
            )
        return seat, match.view_for(seat)

    def any_view_for(self, user_id: int) -> tuple[int, MatchView | VariantMatchView]:
        """The seat and its view of whichever game the table plays."""
        if self.variant is not None:
            return self.variant_view_for(user_id)
        return self.view_for(user_id)

    @property
    def hints_allowed(self) -> bool:
        """Whether /hint may be asked here: the host allowed it and it is no league match."""
        return self.hints and self.league_id is None

    def hint_view(self, user_id: int) -> tuple[int, int, MatchView]:
        """The deal number, seat and view of a member asking for a hint on their turn.

        Raises:
            TableError: hints off here, a league match, not seated, not their turn.
        """
        if self.league_id is not None:
            raise TableError("hints are never given in a league match")
        if not self.hints:
            raise TableError("this table plays without hints: its host chose so at /table create")
        if self.variant is not None:
            raise TableError(
                f"hints are for four-handed euchre: {TITLES[self.variant.name]} is played"
                " without them"
            )
        match = self.match
        if not self.playing or match is None:
            raise TableError("no game is being played at this table: the host can /table start")
        seat = self.seat_for(user_id)
        if match.to_act != seat:
            if seat in match.deal.sitting_out:
                plays = "defends" if match.deal.defender == (seat + 2) % 4 else "plays"
                raise TableError(f"your partner {plays} this deal alone: you sit it out")
            raise TableError("it is not your turn")
        return len(match.deals), seat, match.view_for(seat)

    def hint_still_due(self, deal_number: int, seat: int, view: MatchView) -> bool:
        """Whether the decision a hint was searched for is still to be made: the same deal,
        the same seat to act, nothing played since (a member may act while the search runs)."""
        match = self.match
        return (
            self.playing
            and match is not None
            and len(match.deals) == deal_number
            and match.to_act == seat
            and match.view_for(seat) == view
        )

    def mark_hinted(self, deal_number: int, seat: int) -> None:
        """Remember that `seat` played deal `deal_number` with a hint."""
        self.hinted.setdefault(deal_number, set()).add(seat)

    # -- storage --------------------------------------------------------------------------

    def to_state(self) -> dict[str, Any]:
        """Everything but the match's play, which is rebuilt from `decks` and `actions`."""
        return {
            "host_id": self.host_id,
            "status": self.status,
            "seats": [asdict(o) if o else None for o in self.seats],
            "waiting": [asdict(o) for o in self.waiting],
            "match_no": self.match_no,
            "match_id": self.match_id,
            "first_dealer": self.first_dealer,
            "consecutive": {str(k): v for k, v in self.consecutive.items()},
            "timeouts": self.timeouts,
            "flagged": self.flagged,
            "left_seats": sorted(self.left_seats),
            "removed_seats": sorted(self.removed_seats),
            "changed_games": sorted(self.changed_games),
            "held_names": {str(k): v for k, v in self._held_names.items()},
            "substitution": (
                {**asdict(self.substitution), "approvals": sorted(self.substitution.approvals)}
                if self.substitution
                else None
            ),
            "substitutions_asked": self.substitutions_asked,
            "message_id": self.message_id,
            "message_deal": self.message_deal,
            "message_match": self.message_match,
            "message_finished": self.message_finished,
            "pings": self.pings,
            "pings_sent": self.pings_sent,
            "turn_ping": (
                [self.turn_ping[0], list(self.turn_ping[1]), self.turn_ping[2]]
                if self.turn_ping
                else None
            ),
            "turn_timeout": self.turn_timeout,
            "ping": self.ping,
            "ping_after": self.ping_after,
            "league_id": self.league_id,
            "league_name": self.league_name,
            "reserved": {str(k): list(v) for k, v in self.reserved.items()},
            "variant": self.variant.options() if self.variant else None,
            "hints": self.hints,
            "hinted": {str(k): sorted(v) for k, v in self.hinted.items()},
        }

    @classmethod
    def from_state(
        cls,
        table_id: int,
        guild_id: int,
        channel_id: int,
        options: dict[str, Any],
        state: dict[str, Any],
        decks: list[list[str]],
        actions: list[tuple[int, str]],
        seeds: list[str | None] | None = None,
    ) -> Table:
        """Rebuild a table from storage, replaying its match's actions through the engine."""
        seats = [Occupant(**o) if o else None for o in state["seats"]]
        host = next((o for o in seats if o), Occupant(state["host_id"], "host"))
        stored_variant = state.get("variant")
        variant = variant_from_options(stored_variant) if stored_variant else None
        table = cls(table_id, guild_id, channel_id, host, options_from_dict(options), variant)
        table.host_id = state["host_id"]
        table.seats = seats
        table.waiting = [Occupant(**o) for o in state["waiting"]]
        table._renumber_computers()
        table.match_no = state["match_no"]
        table.consecutive = {int(k): v for k, v in state["consecutive"].items()}
        table.timeouts = list(state["timeouts"])
        table._held_names = {int(k): v for k, v in state.get("held_names", {}).items()}
        sub = state.get("substitution")
        if sub:
            table.substitution = Substitution(
                sub["seat"],
                sub["user_id"],
                sub["name"],
                set(sub["approvals"]),
                sub.get("number", 0),
                sub.get("accepted", False),
                sub.get("asked_by"),
            )
        table.substitutions_asked = state.get("substitutions_asked", 0)
        table.message_id = state.get("message_id")
        table.message_deal = state.get("message_deal")
        table.message_match = state.get("message_match")
        table.message_finished = state.get("message_finished", False)
        # States stored before the list kept one ping.
        old_ping = state.get("ping_message")
        table.pings = list(state.get("pings", [old_ping] if old_ping is not None else []))
        table.pings_sent = list(state.get("pings_sent", []))
        turn_ping = state.get("turn_ping")
        if turn_ping is not None:
            table.turn_ping = (turn_ping[0], tuple(turn_ping[1]), turn_ping[2])
        table.turn_timeout = state.get("turn_timeout")
        table.ping = state.get("ping", PING_AFTER)
        table.ping_after = state.get("ping_after")
        table.league_id = state.get("league_id")
        table.league_name = state.get("league_name")
        table.reserved = {int(k): tuple(v) for k, v in state.get("reserved", {}).items()}
        table.hints = state.get("hints", True)
        playing = state["status"] == PLAYING
        # Between matches the last one is replayed too, as the table held it when it ended: its
        # result stays on the table message and its deals in reach, restart or not. Its end was
        # applied to the seats before they were stored, so it is not applied again.
        if playing or (table.match_no > 0 and actions):
            table.first_dealer = state["first_dealer"]
            table.decks = [list(d) for d in decks]
            table.seeds = list(seeds) if seeds is not None else [None] * len(decks)
            match: Match | VariantMatch
            if variant is not None:
                match = table.variant_match = VariantMatch(
                    variant, table.first_dealer, deal_factory=table._new_variant_deal
                )
            else:
                match = table.match = Match(
                    table.options, table.first_dealer, deal_factory=table._new_deal
                )
            for seat, action in actions:
                match.apply(action, seat)
                table.actions.append((seat, action))
            table.hinted = {int(k): set(v) for k, v in state.get("hinted", {}).items()}
            if playing:
                table.status = PLAYING
                if match.over:
                    table._end_match()  # stored before the state that says it ended
        table.match_id = state.get("match_id")
        table.flagged = state.get("flagged", False)
        table.left_seats = set(state.get("left_seats", ()))
        table.removed_seats = set(state.get("removed_seats", ()))
        if "changed_games" in state:
            table.changed_games = set(state["changed_games"])
        elif table.flagged and table.match is not None:
            # Stored before the games were told apart: every game so far may have changed.
            table.changed_games = set(range(len(table.match.games) + 1))
        return table
