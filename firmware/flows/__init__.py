"""The controller's flows, one mixin of `firmware.controller.Controller` per module:
entries (the square menu and an action's fields), seats (speaking rounds and auctions on
the seat buttons), steps (one-screen confirmations), menu, and setup."""
