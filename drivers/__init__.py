"""Hardware behind small interfaces, each with a desktop stand-in (see docs/drivers.md).

display (Display, OledDisplay, PngDisplay), displays (build_display), eink (QuotationBoard, RefreshPolicy),
terminal, window, inputs (OperatorButtons, OperatorEncoder, SeatButtons), keyboard,
outputs (SeatLights, Beeper), rfid, serial_console, faults, events, clock, config, errors.
Drivers never import engines or firmware; heavy or hardware-only libraries (luma.emulator,
waveshare-epaper, inky, smbus2, RPi.GPIO) are imported only when a part needs them.
"""
