"""The records /record attaches for a game, as the members who download them use them: each is
a file the command line reads (`python -m bot replay`) and, for the bot's own record, checks
(`verify-deal`)."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime

import jsonschema

from bot import cli
from bot.engine.egn import import_egn
from bot.engine.match import Match
from bot.engine.records import deal_to_record, match_to_record
from bot.engine.rules import build_options
from bot.storage.records import StoredRecord
from bot.ui.stats import record_file
from tests.bot.helpers import running_bot, seat_four, start, table_of
from tests.bot.test_coach_qa3_e2e import take
from tests.engine.test_records import SCHEMA

pytest_plugins = ["tests.support.fixtures"]


def _rubber_with_a_partner_alone_after_game_one() -> Match:
    """A somerset rubber played at random, in which no partner took it alone in its first game
    and one did in a later game."""
    for seed in range(500):
        rng = random.Random(seed)
        match = Match(build_options("somerset"), rng.randrange(4), rng=rng)
        while not match.over:
            match.apply(rng.choice(list(match.legal_actions())), match.to_act)
        partner = [
            g for d, g in zip(match.deals, match.game_of_deal, strict=True)
            if d.alone is not None and d.alone != d.maker
        ]  # fmt: skip
        if partner and 0 not in partner:
            return match
    raise AssertionError("no such rubber among the seeds")


def _stored(kind: str, record_id: str, record: dict, deals: tuple = ()) -> StoredRecord:
    return StoredRecord(
        kind=kind,
        record_id=record_id,
        match_id=7,
        game_id=None,
        preset="somerset",
        options={},
        played_at=datetime(2026, 1, 1, tzinfo=UTC),
        record=record,
        deals=deals,
    )


def test_a_game_egn_cannot_hold_attaches_a_record_that_replays(tmp_path, capsys):
    """A rubber in which a partner took it alone in game 2: /record of each of its games said
    "EGN cannot hold this game (deal N: the maker's partner took it alone ...)", game 1 too,
    where no partner had, and attached a JSON file that `python -m bot replay` refused ("not a
    game record"). Game 1 is EGN, and a game EGN cannot hold comes as its rubber's own record,
    which replays."""
    match = _rubber_with_a_partner_alone_after_game_one()
    names = ["Ann", "Bob", "Cy", "Di"]
    whole = _stored("match", "M7", match_to_record(match, players=names))
    partner_game = next(
        g for d, g in zip(match.deals, match.game_of_deal, strict=True)
        if d.alone is not None and d.alone != d.maker
    )  # fmt: skip
    for game in range(len(match.games)):
        game_record = {"match_id": 7, "game_number": game, "scores": list(match.games[game].scores)}
        name, data, note = record_file(_stored("game", f"G{game + 1}", game_record), whole)
        path = tmp_path / name
        path.write_bytes(data)
        if game == partner_game:
            assert name == "euchre-M7.json", (game, name, note)
            assert note.startswith("EGN cannot hold this game (deal "), note
            assert f"record of its rubber, M7, in which it is game {game + 1}" in note, note
        elif any(
            d.alone is not None and d.alone != d.maker
            for d, g in zip(match.deals, match.game_of_deal, strict=True)
            if g == game
        ):
            continue  # another game with a partner alone: told as above
        else:
            assert name.endswith(".egn"), (game, name, note)
            document = json.loads(data)
            jsonschema.validate(document, SCHEMA)
            assert import_egn(document).final_score == match.games[game].scores
        capsys.readouterr()
        assert cli.main(["replay", "--json", str(path)]) == 0, capsys.readouterr().err
        replayed = json.loads(capsys.readouterr().out)
        if name.endswith(".json"):
            assert [g["scores"] for g in replayed["games"]] == [list(g.scores) for g in match.games]
        else:
            assert replayed["final_score"] == list(match.games[game].scores)


def test_a_missing_or_numeric_egn_version_is_refused_saying_so(tmp_path, capsys):
    """A file without a version was refused as "EGN version None is not supported (1.x is)",
    and one with the number 1.4 as "EGN version 1.4 is not supported (1.x is)", which reads
    as a contradiction. Each is told what is wrong with the field."""
    for version, said in (
        (None, "error: the EGN file has no version (1.x is supported)"),
        (1.4, "error: version must be a string such as '1.4', not 1.4"),
        ("2.0", "error: EGN version '2.0' is not supported (1.x is)"),
    ):
        document: dict = {"fileType": "Euchre Game Notation", "metadata": {}, "deals": []}
        if version is not None:
            document["version"] = version
        path = tmp_path / "game.egn"
        path.write_text(json.dumps(document))
        assert cli.main(["replay", str(path)]) == 2
        assert capsys.readouterr().err.strip() == said


def _first_game_over(partner_alone: bool) -> Match:
    """A somerset rubber played at random up to the end of its first game, in which a partner
    took it alone (or none did)."""
    for seed in range(500):
        rng = random.Random(seed)
        match = Match(build_options("somerset"), rng.randrange(4), rng=rng)
        while not match.games:
            match.apply(rng.choice(list(match.legal_actions())), match.to_act)
        if partner_alone == any(d.alone is not None and d.alone != d.maker for d in match.deals):
            return match
    raise AssertionError("no such game among the seeds")


def test_a_game_of_a_rubber_in_play_attaches_a_record_that_replays(tmp_path, capsys):
    """/record G of a game whose rubber was still being played attached the game's summary with
    its deals, said to be "the bot's own record of the game so far": a JSON file that
    `python -m bot replay` refused ("not a game record"). The game is replayed in its rubber
    from the deals stored so far: as EGN, or where EGN cannot hold it, as the rubber's own
    record so far, without the deal dealt after it."""
    for partner_alone in (False, True):
        match = _first_game_over(partner_alone)
        finished = [
            deal_to_record(d, n, g)
            for n, (d, g) in enumerate(zip(match.deals, match.game_of_deal, strict=True), 1)
            if d.is_over
        ]
        stored = StoredRecord(
            kind="game",
            record_id="G3",
            match_id=7,
            game_id=3,
            preset="somerset",
            options=match.options.to_dict(),
            played_at=datetime(2026, 1, 1, tzinfo=UTC),
            record={
                "game_number": 0,
                "scores": list(match.games[0].scores),
                "players": [{"seat": s, "name": n} for s, n in enumerate("ABCD")],
            },
            deals=tuple(finished),
            match_deals=tuple(finished),
        )
        name, data, note = record_file(stored, None)
        path = tmp_path / name
        path.write_bytes(data)
        capsys.readouterr()
        assert cli.main(["replay", "--json", str(path)]) == 0, capsys.readouterr().err
        replayed = json.loads(capsys.readouterr().out)
        if partner_alone:
            assert name == "euchre-G3.json" and "record of the rubber so far" in note, note
            assert [g["scores"] for g in replayed["games"]] == [list(match.games[0].scores)]
            assert len(replayed["deals"]) == len(finished)
        else:
            assert name == "euchre-G3.egn", note
            jsonschema.validate(json.loads(data), SCHEMA)
            assert replayed["final_score"] == list(match.games[0].scores)


async def test_record_of_a_finished_game_while_its_rubber_is_played_is_egn(fake_discord, tmp_path):
    """Through the bot: the first game of a rubber over, /record of it while the second is
    played attaches it as EGN that validates and replays to the game's score."""
    fake = fake_discord
    rng = random.Random(7)
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four(fake, preset="somerset", points=4)
        await start(fake)
        match = table_of(bot, fake).match
        while not match.games:
            # No one plays alone, so that EGN holds the game.
            legal = [a for a in match.view_for(match.to_act).deal.legal if "alone" not in a]
            await take(
                bot, fake, "pass" if "pass" in legal and rng.random() < 0.5 else rng.choice(legal)
            )
        asked = await fake.slash(fake.member("alice"), fake.channel, "record", game_id="G1")
        answer = await asked.message()
        assert answer.text.endswith("(its rubber is still being played)."), answer.text
        document = json.loads(answer.attachments[0].data)
        jsonschema.validate(document, SCHEMA)
        assert import_egn(document).final_score == match.games[0].scores
        assert not bot.handler_errors
