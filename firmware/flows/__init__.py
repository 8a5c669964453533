"""What the screens (firmware/screens/) ask of the controller, one mixin of
`firmware.controller.Controller` per module: entries (starting an entry), seats (the
seat-button events, their timers and the operator's action lists), menu (the language)
and setup (starting the setup, the box file, creating or resuming the game)."""
