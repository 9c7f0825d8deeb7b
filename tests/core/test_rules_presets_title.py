"""A rule set's display name: its own ``title``, never an inherited one; not part of its identity."""

import pytest

from binokel_sim.errors import InputError
from binokel_sim.provenance import rules_hash
from binokel_sim.rules import load_rules
from binokel_sim.rules_files import preset_names


@pytest.mark.parametrize("name", preset_names())
def test_every_preset_has_its_own_title(name):
    r = load_rules(name)
    assert r.title and r.display_name == r.title and len(r.title) <= 80
    assert "title" not in r.to_dict()  # a label: manifests and hashes as before


def test_a_file_that_inherits_a_preset_is_called_by_its_own_name(tmp_path):
    p = tmp_path / "club.toml"
    p.write_text('inherits = "wuerttemberg"\nname = "club"\n', encoding="utf-8")
    r = load_rules(p)
    assert r.display_name == "club" and rules_hash(r) == rules_hash(load_rules("wuerttemberg"))
    p.write_text('inherits = "wuerttemberg"\nname = "club"\ntitle = "Our club (48 cards)"\n', encoding="utf-8")
    assert load_rules(p).display_name == "Our club (48 cards)"
    p.write_text('inherits = "standard"\nname = "club"\ntitle = 3\n', encoding="utf-8")
    with pytest.raises(InputError, match="title: expected a string"):
        load_rules(p)
