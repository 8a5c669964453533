"""The controller's flows not yet moved to screen objects (firmware/screens/), one mixin
of `firmware.controller.Controller` per module: entries (the square menu and an action's
fields) and seats (speaking rounds and auctions on the seat buttons); menu and setup keep
the controller's side of the screens firmware/screens/ holds."""
