"""RDM6300 frames: the decoder alone, then the reader thread on pyserial loop:// ports."""
import queue
import time

import pytest
import serial

from drivers.errors import ConfigError
from drivers.faults import Backoff
from drivers.rfid import (Rdm6300Decoder, RfidReader, TagFilter, build_rfid_reader,
                          rdm6300_frame)

TAG = "0A1B2C3D4E"
OTHER = "1000FFAA55"


def test_frame_layout_and_checksum():
    frame = rdm6300_frame(TAG)
    assert len(frame) == 14 and frame[0] == 0x02 and frame[-1] == 0x03
    assert frame[1:11] == b"0A1B2C3D4E"
    assert frame[11:13] == f"{0x0A ^ 0x1B ^ 0x2C ^ 0x3D ^ 0x4E:02X}".encode()


def test_valid_frames_decode_even_byte_by_byte():
    decoder = Rdm6300Decoder()
    tags = []
    for byte in rdm6300_frame(TAG) + rdm6300_frame(OTHER):
        tags += decoder.feed(bytes([byte]))
    assert tags == [TAG, OTHER] and decoder.frames == 2 and decoder.bad_frames == 0


def test_lower_case_hex_is_accepted():
    frame = rdm6300_frame(TAG)
    assert Rdm6300Decoder().feed(frame[:1] + frame[1:13].lower() + frame[13:]) == [TAG]


def test_bad_checksum_is_rejected_and_counted():
    frame = bytearray(rdm6300_frame(TAG))
    frame[12] = ord("0") if frame[12] != ord("0") else ord("1")
    decoder = Rdm6300Decoder()
    assert decoder.feed(bytes(frame)) == [] and decoder.bad_frames == 1


@pytest.mark.parametrize("noise", [
    b"\xff\x00garbage",                    # bytes outside any frame
    b"\x02" + b"0A1B",                     # a frame cut short by a new STX
    b"\x020A1B\x8799",                     # a non-hex byte inside a frame
    b"\x020A1B2C3D4E77X",                  # wrong byte where ETX should be
])
def test_resynchronises_after_garbage(noise):
    decoder = Rdm6300Decoder()
    assert decoder.feed(noise + rdm6300_frame(TAG)) == [TAG]
    assert decoder.bad_frames + decoder.discarded >= 1


def test_a_tag_held_on_the_reader_counts_once_until_absent_for_the_gap():
    tags = TagFilter(gap=0.5)
    assert tags.seen(TAG, 0.0)
    assert not any(tags.seen(TAG, t / 10) for t in range(1, 30))   # 3 s of repeats
    assert tags.seen(OTHER, 3.0)
    assert not tags.seen(TAG, 3.4)                                  # 0.5 s since 2.9
    assert tags.seen(TAG, 4.0)                                      # 0.6 s away: again


def wait_for(predicate, timeout=3.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


@pytest.fixture
def loop():
    port = serial.serial_for_url("loop://", timeout=0.02)
    yield port
    port.close()


def test_reader_on_a_loop_port(loop):
    events = queue.Queue()
    reader = RfidReader(loop, events, gap=0.2).start()
    try:
        for _ in range(5):                                   # card lying on the antenna
            loop.write(rdm6300_frame(TAG))
            time.sleep(0.02)
        event = events.get(timeout=2)
        assert (event.name, event.kind, event.data) == ("rfid", "tag", TAG)
        time.sleep(0.1)
        assert events.empty()
        time.sleep(0.6)                                      # card taken away
        loop.write(b"\x00noise" + rdm6300_frame(TAG))
        assert events.get(timeout=2).data == TAG
        assert reader.decoder.discarded == 6
    finally:
        reader.stop()


class FlakyPort:
    """A loop:// port whose reads fail while ``broken`` is set (an unplugged adapter)."""

    def __init__(self, port):
        self.port = port
        self.broken = False
        self.failures = 0

    @property
    def in_waiting(self):
        return 0 if self.broken else self.port.in_waiting

    def read(self, size):
        if self.broken:
            self.failures += 1
            time.sleep(0.005)
            raise serial.SerialException("device reports readiness to read but returned no data")
        return self.port.read(size)

    def write(self, data):
        return self.port.write(data)

    def flush(self):
        pass

    def close(self):
        self.port.close()


def test_reader_degrades_on_serial_errors_and_recovers(loop):
    events = queue.Queue()
    flaky = FlakyPort(loop)
    flaky.broken = True
    reader = RfidReader(flaky, events, backoff=Backoff(0.01, 2, 0.04)).start()
    try:
        assert wait_for(lambda: flaky.failures >= 3)
        assert reader.degraded and "SerialException" in reader.last_error
        flaky.broken = False
        loop.write(rdm6300_frame(OTHER))
        assert events.get(timeout=2).data == OTHER
        assert not reader.degraded
    finally:
        reader.stop()


def test_reader_reopens_a_port_that_was_missing():
    opened = []

    def opener():
        if len(opened) < 2:
            opened.append(None)
            raise serial.SerialException("could not open port /dev/serial0")
        port = serial.serial_for_url("loop://", timeout=0.02)
        opened.append(port)
        return port

    events = queue.Queue()
    reader = RfidReader(queue=events, opener=opener, backoff=Backoff(0.01, 2, 0.02)).start()
    try:
        assert wait_for(lambda: opened and opened[-1] is not None)
        opened[-1].write(rdm6300_frame(TAG))
        assert events.get(timeout=2).data == TAG
        assert reader.link.guard.total_failures == 2
    finally:
        reader.stop()


def test_build_from_config(loop):
    events = queue.Queue()
    reader = build_rfid_reader({"gap": 1.5}, events, port=loop)
    assert reader.filter.gap == 1.5
    reader = build_rfid_reader({"port": "loop://", "baudrate": 9600}, events)
    reader.start()
    try:
        assert wait_for(lambda: reader.link.port is not None)
        reader.link.port.write(rdm6300_frame(TAG))
        assert events.get(timeout=2).data == TAG
    finally:
        reader.stop()
    with pytest.raises(ConfigError, match="rfid.gap: 0 is below the minimum"):
        build_rfid_reader({"gap": 0}, events)
    with pytest.raises(ConfigError, match="rfid.baud: unknown setting"):
        build_rfid_reader({"baud": 9600}, events)
