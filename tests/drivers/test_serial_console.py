"""Serial console: the line splitter alone, then the console on a loop:// port."""
import queue
import time

import pytest
import serial

from drivers.errors import ConfigError
from drivers.faults import Backoff
from drivers.serial_console import LineSplitter, SerialConsole, build_serial_console


def test_lines_end_with_lf_crlf_or_cr_and_blank_lines_are_skipped():
    splitter = LineSplitter()
    assert splitter.feed(b"ACHAT 3 ACME\r\nVENTE") == ["ACHAT 3 ACME"]
    assert splitter.feed(b" 2 ZINC\n\n\r\n  \rUNDO\r") == ["VENTE 2 ZINC", "UNDO"]


def test_utf8_split_across_reads_and_invalid_bytes():
    splitter = LineSplitter()
    data = "Société Générale\n".encode()
    assert splitter.feed(data[:5]) == []
    assert splitter.feed(data[5:]) == ["Société Générale"]
    assert splitter.feed(b"caf\xe9\n") == ["caf\ufffd"]


def test_overlong_line_is_dropped_whole():
    splitter = LineSplitter(max_line=16)
    assert splitter.feed(b"X" * 40 + b"\nOK\n") == ["OK"]
    assert splitter.overflows == 1


@pytest.fixture
def loop():
    port = serial.serial_for_url("loop://", timeout=0.02)
    yield port
    port.close()


def test_console_delivers_lines_and_writes_replies(loop):
    events = queue.Queue()
    console = SerialConsole(loop, events, clock=lambda: 5.0).start()
    try:
        loop.write(b"PAYDAY\r\n")
        event = events.get(timeout=2)
        assert (event.name, event.kind, event.t, event.data) == ("console", "line", 5.0, "PAYDAY")
        assert console.write_line("OK 1\nCASH 1200")     # loop:// echoes what is written
        assert [events.get(timeout=2).data for _ in range(2)] == ["OK 1", "CASH 1200"]
    finally:
        console.stop()


class BrokenPort:
    in_waiting = 0

    def read(self, size):
        time.sleep(0.005)
        raise serial.SerialException("read failed")

    def write(self, data):
        raise serial.SerialException("write failed")

    def flush(self):
        pass

    def close(self):
        pass


def test_failing_port_degrades_and_replies_are_dropped_not_raised():
    events = queue.Queue()
    console = SerialConsole(BrokenPort(), events, backoff=Backoff(0.01, 2, 0.02)).start()
    try:
        deadline = time.monotonic() + 2
        while not console.degraded and time.monotonic() < deadline:
            time.sleep(0.01)
        assert console.degraded
        assert console.write_line("OK") is False
        assert events.empty()
    finally:
        console.stop()


def test_build_from_config(loop):
    events = queue.Queue()
    console = build_serial_console({"max_line": 64, "newline": "\n"}, events, port=loop)
    assert console.splitter.max_line == 64 and console.newline == "\n"
    console = build_serial_console({"port": "loop://"}, events).start()
    try:
        deadline = time.monotonic() + 2
        while console.link.port is None and time.monotonic() < deadline:
            time.sleep(0.01)
        console.link.port.write(b"HELP\n")
        assert events.get(timeout=2).data == "HELP"
    finally:
        console.stop()
    with pytest.raises(ConfigError, match="console.encoding: 'klingon' is not a known"):
        build_serial_console({"encoding": "klingon"}, events)
    with pytest.raises(ConfigError, match="console.baudrate: '115200' is not a whole number"):
        build_serial_console({"baudrate": "115200"}, events)
