"""A model OLED controller behind a fake I2C bus: it reads the command and data bytes
luma's i2c interface writes, as an SSD1306 or an SH1106 would (datasheets: horizontal
and page addressing), keeps the controller's display RAM, and shows what the panel
would show. Tests put it under luma's real device classes to check which bytes reach
the bus and that the picture is the frame."""
from __future__ import annotations

import fake_rpi.smbus
from PIL import Image

# Commands followed by argument bytes (the others are one byte; scrolling is never used).
ARGS = {
    "ssd1306": {0x81: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1,
                0x8D: 1},
    "sh1106": {0x81: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0xAD: 1, 0x8D: 1},
}
RAM_COLUMNS = {"ssd1306": 128, "sh1106": 132}


class PanelRam(fake_rpi.smbus.SMBus):
    """fake-rpi's SMBus, as the controller at the other end (see the module docstring).

    ``writes`` lists every block (address, register, bytes); ``bus_bytes`` counts what
    crossed the wire, an address byte and a control byte per block included."""

    def __init__(self, kind: str, width: int = 128, height: int = 64, column_offset: int = 0):
        if kind not in ARGS:
            raise ValueError(kind)
        self.kind, self.width, self.height = kind, width, height
        self.column_offset = column_offset         # the panel's first RAM column (SH1106: 2)
        self.ram = [bytearray(RAM_COLUMNS[kind]) for _ in range(8)]
        self.writes = []
        self._pending = []
        self.mode = 2                                # page addressing at power-on
        self.col = self.page = 0
        self.col_start, self.col_end, self.page_start, self.page_end = 0, 127, 0, 7

    def write_i2c_block_data(self, address, register, data):
        data = list(data)
        self.writes.append((address, register, data))
        if register == 0x00:
            for byte in data:
                self._command_byte(byte)
        elif register == 0x40:
            for byte in data:
                self._data_byte(byte)
        else:
            raise AssertionError(f"control byte 0x{register:02X}")

    @property
    def bus_bytes(self) -> int:
        return sum(2 + len(data) for _, _, data in self.writes)

    @property
    def payload_bytes(self) -> int:
        """Command and data bytes, without the I2C framing (luma's unmanaged i2c cuts data
        into 32-byte blocks, each framed; smbus2 on the box sends one message per call)."""
        return sum(len(data) for _, _, data in self.writes)

    @property
    def data_bytes(self) -> int:
        return sum(len(data) for _, register, data in self.writes if register == 0x40)

    def clear_log(self):
        self.writes.clear()

    # ----------------------------------------------------------------- controller
    def _command_byte(self, byte):
        self._pending.append(byte)
        first = self._pending[0]
        if len(self._pending) <= ARGS[self.kind].get(first, 0):
            return
        command, args = self._pending[0], self._pending[1:]
        self._pending = []
        if self.kind == "ssd1306" and command == 0x20:
            self.mode = args[0]
        elif self.kind == "ssd1306" and command == 0x21:
            self.col_start, self.col_end = args
            self.col = self.col_start
        elif self.kind == "ssd1306" and command == 0x22:
            self.page_start, self.page_end = args
            self.page = self.page_start
        elif 0xB0 <= command <= 0xB7:
            self.page = command - 0xB0
        elif command <= 0x0F:
            self.col = (self.col & 0xF0) | command
        elif command <= 0x1F:
            self.col = (self.col & 0x0F) | ((command & 0x0F) << 4)

    def _data_byte(self, byte):
        self.ram[self.page][self.col] = byte
        if self.kind == "ssd1306" and self.mode == 0:          # horizontal addressing
            self.col += 1
            if self.col > self.col_end:
                self.col = self.col_start
                self.page = self.page_start if self.page >= self.page_end else self.page + 1
        else:                                                   # page addressing
            self.col = (self.col + 1) % RAM_COLUMNS[self.kind]

    def image(self) -> Image.Image:
        """What the panel shows: its RAM's visible columns, as a 1-bit image."""
        image = Image.new("1", (self.width, self.height))
        pixels = image.load()
        for y in range(self.height):
            page, bit = self.ram[y // 8], 1 << (y % 8)
            for x in range(self.width):
                if page[x + self.column_offset] & bit:
                    pixels[x, y] = 255
        return image
