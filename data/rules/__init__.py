"""Rules presets shipped with binokel-sim (one TOML per preset)."""
