"""Rules as data: presets, inheritance, strict validation."""

import pytest

from binokel_sim.errors import InputError
from binokel_sim.rules import load_rules, preset_names

SHIPPED = {"standard", "standard-48", "four-solo", "kreuz", "wuerttemberg", "grupp"}


def test_all_section_11_presets_ship():
    assert SHIPPED <= set(preset_names())


@pytest.mark.parametrize("name,players,hand,tapp,sevens,first,target", [
    ("standard", 3, 12, 4, False, "forehand", 1500),
    ("standard-48", 3, 15, 3, True, "forehand", 1500),
    ("four-solo", 4, 9, 4, False, "forehand", 1500),
    ("kreuz", 4, 9, 4, False, "forehand", 1500),
    ("wuerttemberg", 3, 15, 3, True, "soloist", 1000),
    ("grupp", 3, 15, 3, True, "forehand", 1500),
])
def test_preset_layouts(name, players, hand, tapp, sevens, first, target):
    r = load_rules(name)
    assert (r.layout.players, r.layout.hand_size, r.layout.tapp_size, r.layout.sevens) == (players, hand, tapp, sevens)
    assert r.play.first_lead == first and r.game.target == target
    assert r.name == name


def test_preset_options():
    assert load_rules("kreuz").layout.teams == ((0, 2), (1, 3))
    assert load_rules("kreuz").layout.partners(1) == (1, 3)
    assert load_rules("standard").layout.partners(1) == (1,)
    w = load_rules("wuerttemberg")
    assert w.game.aus and w.melds.eight == {"A": 1000, "K": 800, "O": 600, "U": 400}
    g = load_rules("grupp")
    assert g.surrender.credit == 30 and g.scoring.round_to_10 and g.bettel.allowed
    assert g.melds.double_family == 1500 and g.durch.failure_factor == 2
    d = load_rules("doubled")
    assert d.melds.double_family == 200 and d.melds.eight["K"] == 160 and d.melds.double_binokel == 300
    s = load_rules("standard")
    assert s.surrender.credit == 50 and s.scoring.failure_factor == 2 and s.bidding.min_bid == 150


def write(tmp_path, text, name="r.toml"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_user_file_inherits_and_overrides(tmp_path):
    r = load_rules(write(tmp_path, 'inherits = "standard"\nname = "mine"\n[bidding]\nmin_bid = 200\n'))
    assert r.name == "mine" and r.bidding.min_bid == 200 and r.bidding.bid_step == 10
    assert r.melds == load_rules("standard").melds


def test_user_file_inherits_user_file(tmp_path):
    write(tmp_path, 'inherits = "standard"\nname = "base"\n[game]\ntarget = 2000\n', "base.toml")
    r = load_rules(write(tmp_path, 'inherits = "base.toml"\nname = "child"\n'))
    assert r.game.target == 2000


@pytest.mark.parametrize("text,message", [
    ('inherits = "standard"\nname = "x"\n[bidding]\nmin_bidd = 200\n', "unknown key bidding.min_bidd"),
    ('inherits = "standard"\nname = "x"\ncolour = 1\n', "unknown key colour"),
    ('inherits = "standard"\nname = "x"\n[bidding]\nmin_bid = "high"\n', "bidding.min_bid: expected an integer"),
    ('inherits = "standard"\nname = "x"\n[play]\nfirst_lead = "dealer"\n', "play.first_lead: expected one of"),
    ('inherits = "standard"\nname = "x"\n[layout]\nhand_size = 11\n', "layout: 3 x 11 cards"),
    ('inherits = "standard"\nname = "x"\n[melds]\nfour = { X = 5 }\n', "melds.four: expected a table with keys"),
    ('inherits = "standard"\nname = "x"\n[melds]\nfour = 5\n', "melds.four: expected a table"),
    ('inherits = "standard"\nname = "x"\n[melds]\nfamily = 10\n', "not monotone"),
    ('inherits = "standard"\nname = "x"\n[scoring]\nround_to_10 = 1\n', "scoring.round_to_10: expected true or false"),
    ('inherits = "nonesuch"\nname = "x"\n', "unknown rules preset 'nonesuch'"),
    ('name = "x"\n[layout]\nname="three"\n', "missing key layout.players"),
    ('name = "x"\n[bidding\n', "broken TOML"),
])
def test_bad_rules_files_name_the_problem(tmp_path, text, message):
    with pytest.raises(InputError, match=message.replace("[", r"\[").replace("(", r"\(")):
        load_rules(write(tmp_path, text))


def test_circular_inheritance(tmp_path):
    write(tmp_path, 'inherits = "b.toml"\nname = "a"\n', "a.toml")
    write(tmp_path, 'inherits = "a.toml"\nname = "b"\n', "b.toml")
    with pytest.raises(InputError, match="circle"):
        load_rules(str(tmp_path / "a.toml"))


@pytest.mark.parametrize("spelling", ["../p4/grow.toml", "./grow.toml", "../p4/./grow.toml", "link.toml"])
def test_a_circle_through_any_spelling_of_a_path_is_named(tmp_path, monkeypatch, spelling):
    """A file inheriting itself by another spelling of its path (or through a link) is a circle, not a name too long."""
    (tmp_path / "p4").mkdir()
    write(tmp_path / "p4", f'inherits = "{spelling}"\nname = "g"\n', "grow.toml")
    (tmp_path / "p4" / "link.toml").symlink_to(tmp_path / "p4" / "grow.toml")
    monkeypatch.chdir(tmp_path / "p4")
    with pytest.raises(InputError, match=r"^rules inherit in a circle: 'grow.toml' -> '[./p4]*(grow|link).toml'$"):
        load_rules("grow.toml")


@pytest.mark.parametrize("value", ["nan", "3", "true", "[1]"])
def test_a_name_that_is_not_text_is_named(tmp_path, value):
    with pytest.raises(InputError, match="^name: expected a string in quotes, got "):
        load_rules(write(tmp_path, f'inherits = "standard"\nname = {value}\n'))


def test_unknown_preset_and_missing_file():
    with pytest.raises(InputError, match="unknown rules preset"):
        load_rules("standart")
    with pytest.raises(InputError, match="not found"):
        load_rules("/nonexistent/x.toml")


def test_rules_are_frozen_and_serialisable():
    r = load_rules()
    with pytest.raises(AttributeError):
        r.name = "other"
    assert r.to_dict()["layout"]["teams"] == []
    assert len(r.meld_array()) == 21
