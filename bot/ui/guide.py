"""The guide: /help's pages (the commands, and how a deal goes) and /rules' topics.

The topics are data: each has a title, the laws it rests on (cited as RULES.md cites them:
S.n for the Somerset Club laws of 1888, J.n for Jerome's rules of 1877, H for the Joker and
two- and three-handed rules, K for Keller's variations) and a text written from a table's
`Options`, so a table's own numbers and choices are what a member reads ("lap is off here").

/help's pages are read from the command tree itself: each command's own description and its
options', grouped by the cog that holds it, so a new command or option appears in /help without
being written here twice. It opens on the commands a player needs at the table; a menu under
each page (stored nowhere: the page is in the choice) turns to how a deal goes and to each
group's commands with every option, on as many pages as Discord's limits need. Commands are
shown as Discord's clickable mentions (`</play:123>`) where the tree knows their ids from a
sync, else as `/play`.

/help lists only the commands the member asking may use (`may_use`): a command whose top-level
command has default permissions (`/admin`: Manage Server) or whose description names the
permission its own check asks for (`... (Manage Server).`, as /league create says) is left out
for a member without it in the channel, and a page left with no command is not offered. A DM
has no server permissions to read: every command is listed there as before, but those that need
a permission and run only in a server.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands as ext

from bot.engine.quoting import clip, quoted
from bot.engine.rules import LEFT_OF_LONER, Options
from bot.tables.requests import current_interaction
from bot.ui.errors import BadOption, option_refusal, reply_error
from bot.ui.views import Buttons

# Discord's limits for one embed (and the whole message, which holds one embed here).
DESCRIPTION_LIMIT = 4096
FIELD_LIMIT = 1024
FIELDS_LIMIT = 25
EMBED_LIMIT = 6000

COLOUR = discord.Colour.dark_green()

PRESET_WORDS = {
    "somerset": "the somerset preset (the Somerset Club laws of 1888)",
    "jerome": "the jerome preset (Jerome's rules of 1877)",
    "modern": "the modern preset (the game as most play it today)",
}

# -- the command tree: mentions ------------------------------------------------------------


class CommandTree(app_commands.CommandTree):
    """The bot's command tree. It keeps the ids Discord gives the commands at each sync, so
    the guide can show them as clickable mentions.

    The ids are per scope: a sync to a server gives that server's commands their own ids,
    which are what a mention must carry there; a global sync gives ids for everywhere.
    """

    def __init__(self, client: discord.Client, **kwargs: Any) -> None:
        super().__init__(client, **kwargs)
        self.command_ids: dict[int | None, dict[str, int]] = {}

    async def sync(self, *, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        synced = await super().sync(guild=guild)
        self.command_ids[guild.id if guild else None] = {c.name: c.id for c in synced}
        return synced

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        # An interaction parsed just before a stop began may run once its command is unloaded
        # (a CommandNotFound traceback): it is turned away as those arriving later are.
        takes = getattr(self.client, "takes_interactions", None)
        if takes is not None and not takes():
            self.client.turn_away(interaction)  # type: ignore[attr-defined]
            return False
        # An option sent as another type than the command's fails in discord.py or the command.
        refusal = option_refusal(interaction)
        if refusal is not None:
            raise BadOption(refusal)
        # A command may ask the tables for something: the game manager applies one interaction
        # once (bot.tables.requests). The check runs in the task that then runs the command.
        current_interaction.set(interaction.id)
        return True

    def mention(self, name: str, guild_id: int | None = None) -> str:
        """`</table create:123>` where the command's id is known, else `/table create`.

        Args:
            name: the command's full name, a subcommand with its group (`table create`).
            guild_id: the server the mention is shown in (its own synced ids come first).
        """
        base = name.split()[0]
        for scope in (guild_id, None):
            command_id = self.command_ids.get(scope, {}).get(base)
            if command_id is not None:
                return f"</{name}:{command_id}>"
        return f"/{name}"


# -- /help ---------------------------------------------------------------------------------

HOW_A_DEAL_GOES = """\
Four play, two against two, partners sitting opposite: north and south against east and west.

**The deal.** The dealer gives each player five cards and turns the next card face up. The deal \
moves one seat to the left each hand.

**Making trump, first round.** From the dealer's left, each in turn may pass or accept the \
turn-up's suit as trump: the first and third players *order it up*, the dealer's partner \
*assists*, and the dealer *takes it up* or turns it down. Whoever accepts may say *alone* in the \
same breath, and then plays without a partner.

**The discard.** When the turn-up is made trump, the dealer takes it into his hand and \
discards one card that nobody else sees.

**Making trump, second round.** If all four pass, the turn-up is turned down and, again from \
the dealer's left, each may name another suit as trump (alone or not), or pass. If all pass \
again the deal moves on (with *stick the dealer* the dealer must name a suit).

**The play.** The first player on the dealer's left who is playing leads. Everyone must follow the suit led if he \
can; if not, he may play any card. The highest trump wins the trick, else the highest card of \
the suit led, and the winner leads next. The jack of trumps (the *right bower*) is the highest \
trump, then the other jack of the same colour (the *left bower*), which counts as a trump.

**Scoring.** The side that made trump needs three of the five tricks: three or four score 1, \
all five (a *march*) score 2. With fewer they are *euchred* and the other side scores 2. A lone \
hand that takes all five scores more (/rules topic *Lone hands* says how much at the table). The \
first side to the table's points wins the game.

Your hand and every refusal are shown to you alone. See /rules for this table's own rules, \
topic by topic. The other games of the rule books (`/table create variant:`) have computers at \
easy and standard: an expert plays them at standard."""


@dataclass(frozen=True)
class HelpGroup:
    """A group of commands in /help: the cogs whose commands it holds, and whether the opening
    page (the commands a player needs at the table) shows them."""

    key: str
    title: str
    cogs: tuple[str, ...]
    at_table: bool = False


# The groups in the order /help shows them, by the cog that holds the commands.
HELP_GROUPS = (
    HelpGroup("table", "Table", ("Tables",), at_table=True),
    HelpGroup("playing", "Playing", ("Play", "Coach"), at_table=True),
    HelpGroup("settings", "Your settings", ("Settings",), at_table=True),
    HelpGroup("stats", "Records and leaderboards", ("Stats",)),
    HelpGroup("leagues", "Leagues", ("Leagues", "LeagueRoles")),
    HelpGroup("fixtures", "Fixtures", ("Fixtures",)),
    HelpGroup("nights", "Euchre nights", ("Nights",)),
    HelpGroup("rules", "Help and rules", ("Help",)),
    HelpGroup("admin", "Admin", ("Admin",)),
)
# Where a command of a cog none of the groups names goes, so no command is left out.
OTHER = HelpGroup("other", "Other commands", ())
_GROUP_OF_COG = {cog: group for group in HELP_GROUPS for cog in group.cogs}

# What a group's page says of itself.
FULL_PAGE = (
    "Every command with every option. The options written after a command must be given; the "
    "others may be left out."
)
START, DEAL = "start", "deal"
START_TITLE, DEAL_TITLE = "At the table", "How a deal goes"
# What /help topic offers: the opening page, the deal, and each group's page in full.
HELP_TOPIC_CHOICES = [
    app_commands.Choice(name=title, value=key)
    for key, title in [(START, START_TITLE), (DEAL, DEAL_TITLE)]
    + [(g.key, g.title) for g in HELP_GROUPS]
]
# How many options of a command the opening page names; the group's own page has them all.
OPENING_OPTIONS = 4


@dataclass(frozen=True)
class OptionLine:
    """One option of a command, as /help names it."""

    name: str
    description: str
    required: bool


@dataclass(frozen=True)
class CommandLine:
    """One command as /help lists it."""

    group: HelpGroup
    name: str  # the full name, with its group: `table create`
    description: str
    options: tuple[OptionLine, ...] = ()

    @property
    def required(self) -> tuple[str, ...]:
        """The options a member must give."""
        return tuple(o.name for o in self.options if o.required)


# The permission a command's own check asks for, as the end of its description names it: the
# checks made in a command's body (bot owners, a night's organiser) cannot be read otherwise.
NAMED_PERMISSIONS = {"(Manage Server)": discord.Permissions(manage_guild=True)}


def needed_permissions(command: app_commands.Command[Any, ..., Any]) -> discord.Permissions | None:
    """What a member needs to use `command`, or None for nothing: its top-level command's
    default permissions (Discord applies those to every subcommand and ignores a subcommand's
    own), and the permission its description names (`NAMED_PERMISSIONS`)."""
    root = command.root_parent or command
    needed = root.default_permissions
    if needed is not None and needed.value == 0:
        needed = discord.Permissions(administrator=True)  # Discord: administrators only
    description = command.description.rstrip(". ")
    for words, permissions in NAMED_PERMISSIONS.items():
        if description.endswith(words):
            needed = permissions if needed is None else needed | permissions
    return needed


def may_use(
    command: app_commands.Command[Any, ..., Any],
    guild_id: int | None,
    permissions: discord.Permissions,
) -> bool:
    """Whether /help lists `command` to a member with `permissions` in the channel (what
    Discord resolved for the interaction); in a DM (`guild_id` None), whether it may be used
    by someone there at all: a command that needs a permission and only runs in a server is
    left out, every other as before."""
    needed = needed_permissions(command)
    if needed is None:
        return True
    if guild_id is None:
        root = command.root_parent or command
        return not root.guild_only
    return permissions.administrator or needed <= permissions


def command_lines(
    tree: app_commands.CommandTree,
    shown: Callable[[app_commands.Command[Any, ..., Any]], bool] = lambda command: True,
) -> list[CommandLine]:
    """Every slash command in the tree that `shown` keeps, with its group in /help, its own
    description and its options, in the order of `HELP_GROUPS` (within a group, the tree's
    order)."""
    lines = []
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Group) or not shown(command):
            continue
        cog = command.binding
        group = _GROUP_OF_COG.get(cog.qualified_name if isinstance(cog, ext.Cog) else "", OTHER)
        options = tuple(
            OptionLine(p.display_name, p.description, p.required) for p in command.parameters
        )
        lines.append(CommandLine(group, command.qualified_name, command.description, options))
    order = [*HELP_GROUPS, OTHER]
    return sorted(lines, key=lambda c: order.index(c.group))  # a stable sort


@dataclass(frozen=True)
class HelpPage:
    """One page of /help: its key (what /help topic and the menu pick), the label the menu
    shows, and its embed."""

    key: str
    label: str
    embed: discord.Embed
    summary: str = ""  # the menu's line under the label: the commands on the page


def help_pages(
    commands: Iterable[CommandLine], mention: Callable[[str], str] = lambda name: f"/{name}"
) -> list[HelpPage]:
    """Every page of /help: the commands needed at the table, how a deal goes, then each
    group's commands with every option. A group too long for one message goes on as many
    pages as Discord's limits need, so every command and option is there, whole.

    Args:
        commands: the commands to list (see `command_lines`).
        mention: how a command's name is written (a clickable mention where its id is known).
    """
    groups: dict[HelpGroup, list[CommandLine]] = {}
    for command in commands:
        groups.setdefault(command.group, []).append(command)
    opening = [
        (g.title, [_brief(c, mention, g.title) for c in cs])
        for g, cs in groups.items()
        if g.at_table
    ]
    full = [
        _paged(
            g.key,
            g.title,
            FULL_PAGE,
            [(g.title, [_whole(c, mention) for c in cs])],
        )
        for g, cs in groups.items()
    ]
    deal = HelpPage(DEAL, DEAL_TITLE, _embed(f"Euchre: {DEAL_TITLE.lower()}", HOW_A_DEAL_GOES))
    rest = [DEAL_TITLE, *(pages[0].label for pages in full)]
    intro = (
        "The commands you need at a table, what each does and the options it takes. Your hand "
        "and every refusal are shown to you alone.\n\nMore in the menu below, or with "
        f"/help topic: {', '.join(rest)}."
    )
    start = _paged(START, START_TITLE, clip(intro, DESCRIPTION_LIMIT), opening)
    return [*start, deal, *(page for pages in full for page in pages)]


def help_page(pages: list[HelpPage], key: str | None) -> HelpPage:
    """The page `key` names; the opening page for no key or one no page has."""
    return next((p for p in pages if p.key == key), pages[0])


_GROUP_TITLES = {g.key: g.title for g in (*HELP_GROUPS, OTHER)}


def missing_page(pages: list[HelpPage], key: str | None) -> str | None:
    """What /help says of a page `key` it does not show (the opening page is shown instead):
    a group whose commands the member may not use, or a key no page has (a client that still
    offers a page since renamed, or a forged one), quoted as the project quotes input. None
    when there is no key or its page is there."""
    if key is None or any(p.key == key for p in pages):
        return None
    title = _GROUP_TITLES.get(key)
    if title is not None:
        return (
            f"None of the commands on *{title}* are yours to use here. The pages of the guide "
            "you may read are in the menu below."
        )
    return (
        f"/help has no page {quoted(key)}. Here are the commands at the table; the pages of "
        "the guide are in the menu below."
    )


def _brief(command: CommandLine, mention: Callable[[str], str], where: str) -> str:
    """A command on the opening page: what it does, and the first of its other options."""
    line = _head(command, mention)
    others = [o for o in command.options if not o.required]
    if others:
        named = "; ".join(f"`{o.name}`: {o.description}" for o in others[:OPENING_OPTIONS])
        more = len(others) - OPENING_OPTIONS
        line += f" Options: {named}" + (
            f"; and {more} more (see *{where}* in the menu)." if more > 0 else "."
        )
    return line


def _whole(command: CommandLine, mention: Callable[[str], str]) -> str:
    """A command on its group's page: what it does, then each option on a line of its own."""
    lines = [_head(command, mention)]
    for o in command.options:
        lines.append(f"• `{o.name}`{' (required)' if o.required else ''}: {o.description}")
    return "\n".join(lines)


def _head(command: CommandLine, mention: Callable[[str], str]) -> str:
    words = "".join(f" `{name}`" for name in command.required)
    return f"{mention(command.name)}{words} — {command.description}"


def _embed(title: str, description: str) -> discord.Embed:
    embed = discord.Embed(title=title, description=description, colour=COLOUR)
    embed.set_footer(text=HELP_FOOTER)
    return embed


HELP_FOOTER = "Pick another page of the guide in the menu below."


def _paged(
    key: str, title: str, description: str, sections: list[tuple[str, list[str]]]
) -> list[HelpPage]:
    """Sections (a field's name, its commands) laid out in fields and on as many pages as
    Discord's limits need: a command stays in one field where it fits in one."""
    pages: list[discord.Embed] = [_embed(title, description)]
    summary: list[list[str]] = [[]]
    for name, blocks in sections:
        units = [part for block in blocks for part in _fitting(block)]
        for i, value in enumerate(_chunks(units, FIELD_LIMIT)):
            field = name if i == 0 else f"{name} (more)"
            embed = pages[-1]
            if embed.fields and (
                len(embed.fields) >= FIELDS_LIMIT
                or len(embed) + len(field) + len(value) > EMBED_LIMIT
            ):
                pages.append(_embed(f"{title} ({len(pages) + 1})", f"{title}, continued."))
                summary.append([])
            pages[-1].add_field(name=field, value=value, inline=False)
            summary[-1] += _COMMAND_NAME.findall(value)
    return [
        HelpPage(
            key if n == 0 else f"{key}-{n + 1}",
            title if n == 0 else f"{title} ({n + 1})",
            embed,
            clip(", ".join(f"/{c}" for c in dict.fromkeys(summary[n])), SELECT_TEXT_LIMIT),
        )
        for n, embed in enumerate(pages)
    ]


# A command's name at the start of one of /help's lines, mention or not: `</table create:1>`.
_COMMAND_NAME = re.compile(r"^<?/([a-z0-9_ -]+?)(?::[0-9]+>| `| —)", re.M)


def _fitting(block: str) -> list[str]:
    """A command's lines as one unit where they fit in a field, else line by line."""
    return [block] if len(block) <= FIELD_LIMIT else block.split("\n")


def _chunks(lines: list[str], limit: int) -> Iterator[str]:
    """Lines joined into blocks of at most `limit` characters (a longer line is cut)."""
    block = ""
    for line in lines:
        line = clip(line, limit)
        if block and len(block) + 1 + len(line) > limit:
            yield block
            block = ""
        block = f"{block}\n{line}" if block else line
    if block:
        yield block


# -- /help's menu --------------------------------------------------------------------------

# What the guide's answers may notify: no one (what a member typed is quoted in them).
NO_MENTIONS = discord.AllowedMentions.none()

# Discord's limits for a select menu: its options, and an option's label and description.
SELECT_OPTIONS_LIMIT = 25
SELECT_TEXT_LIMIT = 100


@dataclass(frozen=True)
class HelpAnswer:
    """/help's answer: a word on a page asked for and not shown (or None), the page, its menu."""

    content: str | None
    embed: discord.Embed
    view: discord.ui.View


def help_answer(
    tree: app_commands.CommandTree,
    guild_id: int | None,
    key: str | None,
    permissions: discord.Permissions | None = None,
) -> HelpAnswer:
    """/help's page `key` for a member in `guild_id`, with the menu of the other pages.

    Args:
        tree: the command tree the pages are read from.
        guild_id: the server the member asks in (None in a DM).
        key: the page asked for (None for the opening page).
        permissions: the member's permissions in the channel (`interaction.permissions`):
            only the commands they may use are listed (`may_use`). None lists every command.
    """

    def mention(name: str) -> str:
        if isinstance(tree, CommandTree):
            return tree.mention(name, guild_id)
        return f"/{name}"

    if permissions is None:
        lines = command_lines(tree)
    else:
        allowed = permissions
        lines = command_lines(tree, lambda command: may_use(command, guild_id, allowed))
    pages = help_pages(lines, mention)
    page = help_page(pages, key)
    view = Buttons()
    view.add_item(HelpMenu(menu_options(pages, page.key)))
    return HelpAnswer(missing_page(pages, key), page.embed, view)


def menu_options(pages: list[HelpPage], key: str) -> list[discord.SelectOption]:
    """The menu's pages: all of them while they fit, else the 25 around the one shown."""
    at = next(i for i, p in enumerate(pages) if p.key == key)
    first = max(0, min(at - SELECT_OPTIONS_LIMIT // 2, len(pages) - SELECT_OPTIONS_LIMIT))
    return [
        discord.SelectOption(
            label=clip(p.label, SELECT_TEXT_LIMIT),
            value=p.key,
            description=p.summary or None,
            default=p.key == key,
        )
        for p in pages[first : first + SELECT_OPTIONS_LIMIT]
    ]


class HelpMenu(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"euchre:help",
):
    """The menu under every /help page: picking a page shows it in place. The page picked is
    in the choice, so the menu needs nothing stored and works after a restart."""

    def __init__(self, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id="euchre:help",
                placeholder="More help: pick a page",
                options=options or [discord.SelectOption(label=START_TITLE, value=START)],
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HelpMenu:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> Any:
        try:
            chosen = self.item.values[0] if self.item.values else None
            tree = interaction.client.tree  # type: ignore[attr-defined]
            # Read again for who picks, with their permissions now: the menu stores nothing.
            shown = help_answer(tree, interaction.guild_id, chosen, interaction.permissions)
            message = interaction.message
            if message is None or not message.flags.ephemeral:
                # /help answers privately: a menu on a public message (the table's, by a
                # hand-made request) is answered with the page, the message left as it is.
                await interaction.response.send_message(
                    content=shown.content,
                    embed=shown.embed,
                    view=shown.view,
                    ephemeral=True,
                    allowed_mentions=NO_MENTIONS,
                )
                return
            await interaction.response.edit_message(
                content=shown.content,  # None takes away a word an earlier page had
                embed=shown.embed,
                view=shown.view,
                allowed_mentions=NO_MENTIONS,
            )
        except Exception as error:  # every pick gets an answer
            await reply_error(interaction, error)


# -- /rules --------------------------------------------------------------------------------


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _ranks_below_ten(options: Options) -> str:
    return "nine, eight, seven" if options.pack == 32 else "nine"


def _on(value: bool) -> str:
    return "on here" if value else "off here"


def _bowers(o: Options) -> str:
    joker = (
        "The Joker is in the pack here: it is the highest trump of all, above the right bower, "
        "whatever the trump suit (H)."
        if o.joker
        else "There is no Joker here."
    )
    low = _ranks_below_ten(o)
    return (
        "The jack of the trump suit is the **right bower**, the highest trump. The other jack "
        "of the same colour is the **left bower**, the next highest: with hearts trumps, the "
        "jack of diamonds. The left bower is a trump for every purpose and no longer a card of "
        "its own suit: it follows a trump lead, and must be played to one when it is your only "
        "trump (H).\n\n"
        f"Below the bowers the trumps run ace, king, queen, ten, {low}. The other suit of the "
        f"trump's colour has no jack: ace, king, queen, ten, {low}. The two other suits run "
        f"ace, king, queen, jack, ten, {low}.\n\n{joker}"
    )


def _order_up(o: Options) -> str:
    discard = (
        "any card, the turn-up too"
        if o.discard_turn_up
        else "any card but the turn-up itself (S.88)"
    )
    return (
        "After the deal the next card is turned up, and its suit is offered as trump. From the "
        "dealer's left, each in turn may pass or accept it:\n"
        "• the first player (left of the dealer) and the third **order it up**;\n"
        "• the dealer's partner **assists**;\n"
        "• the dealer **takes it up**, or passes and turns it down.\n\n"
        "Whoever accepts it is the maker: his side must take three tricks. To play alone, say so "
        "in the same declaration (S.98): /order with alone.\n\n"
        "The dealer then takes the turn-up into his hand and discards one card face down "
        f"(S.86): here, {discard}."
    )


def _discard(o: Options) -> str:
    rule = (
        "Here the dealer may discard any card, the turn-up too."
        if o.discard_turn_up
        else "Here the turn-up itself cannot be the discard (S.88): the dealer keeps it and "
        "discards another card."
    )
    return (
        "When the turn-up is made trump in the first round, the dealer takes it into his hand "
        f"and discards one card, which only he sees (S.86).\n\n{rule}\n\n"
        "When the dealer's partner plays alone, the dealer sits out and takes nothing up."
    )


def _next(o: Options) -> str:
    end = (
        "If the other three pass again, the dealer may not pass: with stick the dealer, he "
        "must name a suit."
        if o.stick_the_dealer
        else "If all four pass again, the deal is over and passes to the left (S.77)."
    )
    return (
        "If all four pass in the first round, the turn-up is turned down. Again from the "
        "dealer's left, each may name any other suit as trump, alone or not (/call), or pass. "
        "Naming the suit turned down counts as a pass (S.78, J.6)"
        + (", except for a dealer who must name a suit." if o.stick_the_dealer else ".")
        + "\n\n"
        "Naming the other suit of the same colour is **making it next**: with a heart turned "
        "down, diamonds. Naming a suit of the other colour is **crossing the suit**.\n\n" + end
    )


def _stick_the_dealer(o: Options) -> str:
    if o.stick_the_dealer:
        return (
            "Stick the dealer is on here: when the other three pass in the second round, the "
            "dealer must name a trump suit (not the one turned down), so every deal is played."
        )
    return (
        "Stick the dealer is off here: when all four pass in both rounds, the deal is thrown in "
        "and passes to the left (S.77)."
    )


def _alone(o: Options) -> str:
    lead = (
        "The player on the lone hand's left leads."
        if o.loner_lead == LEFT_OF_LONER
        else "The first player on the dealer's left leads, skipping one who sits out (J.9)."
    )
    extras = []
    if o.partner_alone:
        extras.append("His partner may instead take it alone from him (see *partner alone*).")
    if o.defend_alone:
        extras.append("One adversary may defend alone against him (see *defend alone*).")
    return (
        "Whoever orders up, assists, takes up or names a suit may play alone, saying so in the "
        "same declaration (S.98): /order or /call with alone. His partner lays his hand face "
        f"down and sits out the deal (S.101). {lead}\n\n"
        "Nobody may play alone when the adversaries made the trump (S.95), nor after passing "
        "in the second round (J.7).\n\n"
        f"Here a lone hand scores {_points(o.lone_march_points)} for all five tricks (a lone "
        f"march) and {_points(o.lone_made_points)} for three or four. With fewer it is euchred "
        f"and the adversaries score {_points(o.lone_euchred_points)} (S.3, J.17, J.18)."
        + ("\n\n" + " ".join(extras) if extras else "")
    )


def _partner_alone(o: Options) -> str:
    if not o.partner_alone:
        return (
            "Off here: only the player who makes the trump may play alone. His partner plays "
            "with him, or sits out when he goes alone."
        )
    return (
        "On here. When your partner makes the trump, alone or not, and you have not yet spoken "
        "at that trump, you are asked before the first lead whether you take it alone from him "
        '("I take it from you", S.94): /alone or **Take it alone** in your hand, and your '
        "partner sits out. Else /pass: **Play with partner** in your hand, or, when he made it "
        "alone, **Let partner play alone**, and you sit out. Once you have passed at that trump "
        "you cannot (S.93, S.99)."
    )


def _defend_alone(o: Options) -> str:
    if not o.defend_alone:
        return "Off here: both adversaries play against a lone hand."
    return (
        "On here. When a lone hand is declared, its adversaries are asked in turn from the "
        "dealer's left, before the first lead, whether one will defend alone (/alone); his "
        "partner then sits out too. If the lone defender euchres the lone hand, his side scores "
        f"{_points(o.defend_alone_points)}."
    )


def _joker(o: Options) -> str:
    low = "seven" if o.pack == 32 else "nine"
    if not o.joker:
        return f"There is no Joker here: the pack is {o.pack} cards, ace down to {low}."
    return (
        f"The Joker is in the pack here ({o.pack + 1} cards). It is the highest trump whatever "
        "the trump suit, above the right bower. If the Joker is turned up, the dealer names the "
        "suit it stands for before anyone speaks, and it is then the turn-up of that suit."
    )


def _scoring(o: Options) -> str:
    match = (
        "A match here is a rubber of three games (see *rubber points*)."
        if o.is_rubber
        else "A match here is a single game."
    )
    defend = (
        f" If a lone defender euchres it, his side scores {_points(o.defend_alone_points)}."
        if o.defend_alone
        else ""
    )
    return (
        f"The side that made the trump scores {_points(o.made_points)} for three or four "
        f"tricks and {_points(o.march_points)} for all five (a march). With fewer than three it "
        f"is euchred and the other side scores {_points(o.euchred_points)} (S.2, J.17, J.18).\n\n"
        f"A lone hand scores {_points(o.lone_march_points)} for a march and "
        f"{_points(o.lone_made_points)} for three or four; euchred, it gives the adversaries "
        f"{_points(o.lone_euchred_points)} (S.3).{defend}\n\n"
        f"A game is {_points(o.points)}: the first side to reach them wins it (J.19). {match}"
    )


def _lap(o: Options) -> str:
    if not o.lap:
        return (
            "Lap is off here: points scored beyond what wins the game are lost, and the next "
            "game starts at love-all."
        )
    return (
        f"Lap is on here: points scored beyond the {o.points} that win a game are carried into "
        "the next game of the rubber (S.1, and the laws' list of terms). Should the third game "
        "lap, a fourth is played (S.1)."
    )


def _double_game(o: Options) -> str:
    if not o.is_rubber:
        return "There are no rubbers here (a match is a single game), so no game is doubled."
    if not o.double_game:
        return "Off here: every game won counts one toward the rubber."
    return (
        "On here: a game counts two toward the rubber when the losers scored nothing, and one "
        "otherwise (S.7)."
    )


def _rubber(o: Options) -> str:
    if not o.is_rubber:
        return (
            f"A match here is a single game of {_points(o.points)}, not a rubber: the side that "
            "reaches them first wins."
        )
    games = 4 if o.lap else 3
    most = games * (2 if o.double_game else 1) + 2
    fourth = "; should the third game lap, a fourth is played" if o.lap else ""
    counts = "one, or two when the losers scored nothing" if o.double_game else "one"
    return (
        f"A match here is a rubber: three games, all played even when one side wins the first "
        f"two{fourth} (S.1). Each game won counts {counts}; the side that wins two games wins "
        f"the rubber and adds two more (S.7). So a rubber is worth at most {most} rubber "
        "points here, and the leaderboards count rubbers won and rubber points."
    )


@dataclass(frozen=True)
class Topic:
    """One topic of /rules.

    Attributes:
        key: the value a member picks.
        title: the topic's name.
        laws: the laws it rests on, as RULES.md cites them (empty for a modern rule).
        explain: the text for a table's options.
        status: where an option turns the rule on or off, a word on it for the index.
    """

    key: str
    title: str
    laws: str
    explain: Callable[[Options], str]
    status: Callable[[Options], str] | None = None


def _turn_up_status(o: Options) -> str:
    return "the turn-up may be discarded here" if o.discard_turn_up else "not the turn-up here"


def _option_status(name: str) -> Callable[[Options], str]:
    return lambda o: _on(bool(getattr(o, name)))


TOPICS = (
    Topic("bowers", "The bowers", "S.8, J.2, H", _bowers),
    Topic("order-up", "Order up, assist, take up", "S.74-S.76, S.86, S.98, J.6", _order_up),
    Topic("discard", "The turn-up discard", "S.86, S.88", _discard, _turn_up_status),
    Topic("next", "Making it next: the second round", "S.77, S.78, J.6", _next),
    Topic(
        "stick-the-dealer",
        "Stick the dealer",
        "",
        _stick_the_dealer,
        _option_status("stick_the_dealer"),
    ),
    Topic("alone", "Lone hands", "S.3, S.93, S.95, S.98, S.101, J.7, J.9", _alone),
    Topic(
        "partner-alone",
        "Taking it alone from your partner",
        "S.93, S.94, S.99, J.6",
        _partner_alone,
        _option_status("partner_alone"),
    ),
    Topic(
        "defend-alone",
        "Defending alone",
        "",
        _defend_alone,
        _option_status("defend_alone"),
    ),
    Topic("joker", "The Joker", "H", _joker, _option_status("joker")),
    Topic("scoring", "Points and the game", "S.2, S.3, J.17-J.19", _scoring),
    Topic("lap", "Lap", "S.1", _lap, _option_status("lap")),
    Topic("double-game", "The double game", "S.7", _double_game, _option_status("double_game")),
    Topic("rubber", "Rubbers and rubber points", "S.1, S.7", _rubber),
)
TOPIC_BY_KEY: Mapping[str, Topic] = {t.key: t for t in TOPICS}
TOPIC_CHOICES = [app_commands.Choice(name=t.title, value=t.key) for t in TOPICS]


def whose_rules(options: Options, at_table: bool) -> str:
    """Whose rules a /rules answer explains: the table's, or the bot's default."""
    words = PRESET_WORDS.get(options.preset, options.preset)
    if at_table:
        changed = " with some options of its own" if _changed(options) else ""
        return f"This table plays by {words}{changed}."
    return (
        f"There is no table in this channel, so these are the bot's default rules: {words}. "
        "A table may choose others when it is opened."
    )


def _changed(options: Options) -> bool:
    try:
        return bool(options.changed())
    except KeyError:  # a preset this guide does not know: nothing to compare with
        return False


def _citation(laws: str) -> str:
    if not laws:
        return "No law: a modern rule, not in the old laws."
    return f"{'Laws' if ',' in laws or '-' in laws else 'Law'}: {laws}."


def unknown_topic(topic: str | None) -> str | None:
    """What /rules says before its index of topics when asked for a topic it has not (a client
    that still offers one since renamed, or a forged value: anything typed, quoted as the project
    quotes input, so it mentions no one and formats nothing). None for no topic or a known one."""
    if topic is None or topic in TOPIC_BY_KEY:
        return None
    return f"/rules has no topic {quoted(topic)}. These are its topics:"


def rules_embed(options: Options, topic: str | None, at_table: bool) -> discord.Embed:
    """/rules' answer: one topic for these options, or the index of topics (for no topic, or
    one it has not: `unknown_topic` says so).

    Args:
        options: the table's options (or the default preset's, with no table).
        topic: a topic's key, or None for the index.
        at_table: whether the options are a table's in this channel.
    """
    chosen = TOPIC_BY_KEY.get(topic or "")
    if chosen is None:
        lines = []
        for t in TOPICS:
            status = f": {t.status(options)}" if t.status else ""
            lines.append(f"**{t.title}** ({t.laws or 'a modern rule'}){status}")
        description = "Pick a topic with /rules topic to read it for this table.\n\n" + "\n".join(
            lines
        )
        embed = discord.Embed(title="The rules, topic by topic", description=description)
    else:
        description = f"{chosen.explain(options)}\n\n*{_citation(chosen.laws)}*"
        embed = discord.Embed(title=chosen.title, description=description)
    embed.colour = COLOUR
    embed.set_footer(text=whose_rules(options, at_table))
    return embed


__all__ = [
    "HELP_GROUPS",
    "HELP_TOPIC_CHOICES",
    "CommandLine",
    "CommandTree",
    "HelpAnswer",
    "HelpMenu",
    "HelpPage",
    "NO_MENTIONS",
    "OptionLine",
    "TOPICS",
    "TOPIC_CHOICES",
    "Topic",
    "command_lines",
    "help_answer",
    "help_page",
    "help_pages",
    "may_use",
    "menu_options",
    "missing_page",
    "needed_permissions",
    "rules_embed",
    "unknown_topic",
    "whose_rules",
]


# How the rule options read in Discord's command picker, for every command that sets them
# (/table create, /league create).
RULE_OPTION_DESCRIPTIONS = {
    "points": "points for a game (default by preset)",
    "stick_the_dealer": "the dealer must name a trump in the second round",
    "partner_alone": "the maker's partner may take it alone",
    "defend_alone": "an adversary may defend alone against a lone hand",
    "joker": "add the Joker, the highest trump",
}
