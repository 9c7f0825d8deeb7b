"""Studies built on the engine: one module per study."""
