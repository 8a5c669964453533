"""The controller's screens as small objects: one class per UI frame type, each with its
own keys, tick, drawing and saved state (see base.py for the protocol)."""
