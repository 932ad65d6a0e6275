"""Deals anyone can verify, end to end: a table deals from seeds, its record shows them once
each deal is over, and `python -m bot verify-deal` checks every deal of the record."""

from __future__ import annotations

import json
import random

import pytest

from bot import cli
from bot.engine.commitment import commitment, deal_identity, pack_order, shuffled_pack
from bot.engine.records import match_to_record
from bot.engine.rules import build_options
from bot.engine.variants import make_variant
from bot.engine.variants.records import variant_match_to_record
from bot.tables.table import Occupant, Table


def played_table(deals: int = 2, preset: str = "modern") -> Table:
    table = Table(7, 1, 2, Occupant(1, "ann"), build_options(preset))
    for user_id, name in ((2, "bob"), (3, "cat"), (4, "dan")):
        table.join(user_id, name)
    table.start(keep_seats=True, rng=random.Random(3))
    rng = random.Random(4)
    match = table.match
    while len(match.deals) <= deals and not match.over:
        legal = match.legal_actions()
        table.act_for_seat(match.to_act, legal[int(rng.random() * len(legal))], by_player=True)
    return table


def test_a_table_deals_each_deal_from_its_own_seed():
    table = played_table()
    for number, deal in enumerate(table.match.deals, start=1):
        assert deal.seed == table.seeds[number - 1] and deal.deal_id == deal_identity(7, 1, number)
        assert table.decks[number - 1] == pack_order(deal.seed, 24, False)
    assert len(set(table.seeds)) == len(table.seeds)


def test_a_restored_table_keeps_its_seeds():
    table = played_table()
    copy = Table.from_state(
        table.id,
        1,
        2,
        table.options.to_dict(),
        table.to_state(),
        table.decks,
        table.actions,
        table.seeds,
    )
    assert [d.seed for d in copy.match.deals] == [d.seed for d in table.match.deals]


def test_the_record_shows_a_seed_only_once_its_deal_is_over():
    table = played_table()
    record = match_to_record(table.match)
    *over, current = record["deals"]
    for deal, raw in zip(table.match.deals, over, strict=False):
        assert raw["seed"] == deal.seed
        assert raw["commitment"] == commitment(deal.seed, deal.deal_id)
    assert "seed" not in current and current["commitment"]  # the deal in play: promised only


def run_verify(tmp_path, record, *extra) -> tuple[int, str]:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    return cli.main(["verify-deal", str(path), *extra]), path


def test_verify_deal_checks_every_finished_deal(tmp_path, capsys):
    record = match_to_record(played_table().match)
    code, _ = run_verify(tmp_path, record)
    out = capsys.readouterr().out
    assert code == 0 and "deal 1: verified" in out and "not over" in out


def test_verify_deal_names_a_deal_whose_seed_does_not_give_its_commitment(tmp_path, capsys):
    record = match_to_record(played_table().match)
    record["deals"][0]["commitment"] = "0" * 64
    code, _ = run_verify(tmp_path, record)
    out = capsys.readouterr().out
    assert code == 1 and "deal 1: does not verify: the seed does not give the commitment" in out


def test_verify_deal_names_a_deal_not_dealt_from_its_seed(tmp_path, capsys):
    record = match_to_record(played_table().match)
    first = record["deals"][0]
    first["seed"] = "ab" * 32  # another seed, with its own commitment: the cards are not its
    first["commitment"] = commitment(first["seed"], first["deal_id"])
    code, _ = run_verify(tmp_path, record, "--json")
    result = json.loads(capsys.readouterr().out)
    assert code == 1 and not result["verified"]
    assert "the seed deals seat" in result["deals"][0]["problem"]


@pytest.mark.parametrize("moved", ["two hands", "a hand and the kitty", "the turn-up"])
def test_verify_deal_names_a_deal_whose_cards_were_moved_though_its_play_no_longer_replays(
    tmp_path, capsys, moved
):
    """A card moved from where the seed dealt it breaks the play that follows, but it is that
    deal that fails its seed: exit 1 with the deal named, and the others still checked."""
    record = match_to_record(played_table().match)
    first = record["deals"][0]
    hands, kitty = first["hands"], first["kitty"]
    played = {card for _, card in first["actions"]}
    held = next(c for c in hands[0] if c in played)
    if moved == "two hands":
        other = next(c for c in hands[1] if c in played)
        hands[0][hands[0].index(held)], hands[1][hands[1].index(other)] = other, held
    elif moved == "a hand and the kitty":
        hands[0][hands[0].index(held)], kitty[0] = kitty[0], held
    else:
        first["turn_up"], kitty[0] = kitty[0], first["turn_up"]
    code, _ = run_verify(tmp_path, record)
    captured = capsys.readouterr()
    assert code == 1
    assert "deal 1: does not verify: the seed" in captured.out
    assert "deal 2: verified" in captured.out
    assert "the record does not replay" in captured.err or moved == "the turn-up"


def test_verify_deal_refuses_what_is_not_a_record(tmp_path, capsys):
    path = tmp_path / "x.json"
    path.write_text("[1, 2]")
    assert cli.main(["verify-deal", str(path)]) == 2


def test_simulate_record_writes_matches_that_verify(tmp_path, capsys):
    path = tmp_path / "sim.json"
    assert cli.main(["simulate", "--matches", "2", "--seed", "5", "--record", str(path)]) == 0
    records = json.loads(path.read_text())
    assert len(records) == 2 and all(d["seed"] for r in records for d in r["deals"])
    capsys.readouterr()
    assert cli.main(["verify-deal", str(path)]) == 0
    out = capsys.readouterr().out
    assert "match 2, deal 1: verified" in out
    # The same simulation seed gives the same seeds.
    again = tmp_path / "again.json"
    assert cli.main(["simulate", "--matches", "2", "--seed", "5", "--record", str(again)]) == 0
    assert json.loads(again.read_text()) == records


def test_simulate_without_record_plays_as_before(capsys):
    # Recording deals from seeds; without it the simulation shuffles as it always has.
    assert cli.main(["simulate", "--matches", "3", "--seed", "1", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert cli.main(["simulate", "--matches", "3", "--seed", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == first


def played_variant_table(name: str, players: int) -> Table:
    table = Table(8, 1, 2, Occupant(1, "ann"), build_options("modern"), make_variant(name, players))
    for user_id in range(2, players + 1):
        table.join(user_id, f"p{user_id}")
    table.start(keep_seats=True, rng=random.Random(3))
    rng = random.Random(4)
    match = table.variant_match
    while len(match.deals) <= 2 and not match.over:
        legal = match.legal_actions()
        table.act_for_seat(match.to_act, legal[int(rng.random() * len(legal))], by_player=True)
    return table


@pytest.mark.parametrize(
    ("name", "players"),
    [("two-handed", 2), ("french", 4), ("six-handed", 6), ("napoleon", 7), ("set-back", 3)],
)
def test_a_variant_table_deals_from_seeds_that_verify(tmp_path, capsys, name, players):
    table = played_variant_table(name, players)
    variant = table.variant
    for number, deal in enumerate(table.variant_match.deals, start=1):
        assert deal.deal_id == deal_identity(8, 1, number)
        assert table.decks[number - 1] == shuffled_pack(deal.seed, variant.pack)
    record = variant_match_to_record(table.variant_match)
    *over, current = record["deals"]
    assert all(raw["seed"] for raw in over) and "seed" not in current and current["commitment"]
    code, _ = run_verify(tmp_path, record)
    out = capsys.readouterr().out
    assert code == 0 and "deal 1: verified" in out and "deal 2: verified" in out


def test_verify_deal_names_a_variant_deal_not_dealt_from_its_seed(tmp_path, capsys):
    record = variant_match_to_record(played_variant_table("napoleon", 5).variant_match)
    first = record["deals"][0]
    first["seed"] = "ab" * 32
    first["commitment"] = commitment(first["seed"], first["deal_id"])
    code, _ = run_verify(tmp_path, record)
    out = capsys.readouterr().out
    assert code == 1 and "deal 1: does not verify: the seed deals seat" in out


def test_a_restored_variant_table_keeps_its_seeds():
    table = played_variant_table("set-back", 4)
    copy = Table.from_state(
        table.id,
        1,
        2,
        table.options.to_dict(),
        table.to_state(),
        table.decks,
        table.actions,
        table.seeds,
    )
    assert [d.seed for d in copy.variant_match.deals] == [d.seed for d in table.variant_match.deals]


def test_a_commitment_bound_to_another_deal_is_caught(tmp_path, capsys):
    """A seed and commitment moved from one deal to another (or to another match) verify on
    their own; the identity each commitment is bound to must be that deal's, in its match."""
    path = tmp_path / "sim.json"
    assert cli.main(["simulate", "--matches", "1", "--seed", "5", "--record", str(path)]) == 0
    loaded = json.loads(path.read_text())
    original = loaded[0] if isinstance(loaded, list) else loaded
    for deal_id, words in (
        (original["deals"][0]["deal_id"], "bound to deal 1 of its match, not to deal 2"),
        ("euchre-bot deal 9:9:2", "bound to table 9, match 9"),
    ):
        record = json.loads(json.dumps(original))
        second = record["deals"][1]
        second["deal_id"] = deal_id
        second["commitment"] = commitment(second["seed"], deal_id)
        path.write_text(json.dumps(record))
        capsys.readouterr()
        assert cli.main(["verify-deal", str(path)]) == 1
        out = capsys.readouterr().out
        assert "deal 2" in out and words in out, out


def test_a_record_with_no_deal_over_has_nothing_verified(tmp_path, capsys):
    """Nothing checked is not a pass: the first deal still in play shows no seed yet."""
    table = played_table(deals=0)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(match_to_record(table.match)))
    assert cli.main(["verify-deal", str(path)]) == 1
    assert "nothing to check yet" in capsys.readouterr().out
    assert cli.main(["verify-deal", str(path), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["verified"] is False


def test_replay_of_several_simulated_matches_says_what_reads_them(tmp_path, capsys):
    path = tmp_path / "sim.json"
    assert cli.main(["simulate", "--matches", "2", "--seed", "5", "--record", str(path)]) == 0
    capsys.readouterr()
    assert cli.main(["replay", str(path)]) == 2
    assert "holds 2 match records" in capsys.readouterr().err
