"""Keys to InputEvents: the pure decoder, then the reader on a pipe and on a pty."""
import os
import queue
import termios

import pytest

from drivers.keyboard import KeyboardReader, KeyDecoder


def names(events):
    return [(e.name, e.kind) for e in events]


def tap(name):
    return [(name, "down"), (name, "up"), (name, "press")]


@pytest.mark.parametrize("data, name", [
    (b"\x1b[A", "up"), (b"\x1bOA", "up"), (b"k", "up"),
    (b"\x1b[B", "down"), (b"j", "down"),
    (b"\r", "ok"), (b"\n", "ok"),
    (b"\x7f", "back"), (b"\x08", "back"), (b"\x1b[D", "back"),
    (b"1", "seat1"), (b"6", "seat6"),
    ("&".encode(), "seat1"), ("é".encode(), "seat2"), (b'"', "seat3"), (b"-", "seat6"),
])
def test_short_keys(data, name):
    assert names(KeyDecoder().feed(data, 1.0)) == tap(name)


def test_capital_b_is_a_long_back():
    assert names(KeyDecoder().feed(b"B", 0)) == [("back", "down"), ("back", "long_press"), ("back", "up")]


@pytest.mark.parametrize("hold, release", [(b"!", b"!"), (b"!", b"1"), (b"\x1bOP", b"\x1bOP"), (b"@", "é".encode())])
def test_shifted_digit_or_function_key_holds_a_seat_until_struck_again(hold, release):
    decoder = KeyDecoder()
    seat = "seat1" if hold in (b"!", b"\x1bOP") else "seat2"
    assert names(decoder.feed(hold, 0)) == [(seat, "down"), (seat, "long_press")]
    assert decoder.held == {seat}
    assert names(decoder.feed(release, 1)) == [(seat, "up")]
    assert decoder.held == set()


def test_the_right_arrow_is_no_key():
    """The box has Up, Down, OK and Back: Right is no button, so it presses none (as OK it
    would start the game from "[Jouer] Retour Régler", where a move to "Régler" is meant)."""
    decoder = KeyDecoder()
    assert decoder.feed(b"\x1b[C", 0) == [] and decoder.feed(b"\x1bOC", 0) == []
    assert names(decoder.feed(b"\x1b[C\r", 0)) == tap("ok")       # the keys after it still count


def test_f5_f6_and_unknown_keys():
    decoder = KeyDecoder()
    assert names(decoder.feed(b"\x1b[15~", 0)) == [("seat5", "down"), ("seat5", "long_press")]
    assert names(decoder.feed(b"\x1b[17~", 0)) == [("seat6", "down"), ("seat6", "long_press")]
    assert decoder.feed(b"zq7\x1b[H", 0) == []


def test_escape_alone_waits_for_more_bytes_then_is_back():
    decoder = KeyDecoder()
    assert decoder.feed(b"\x1b", 0) == [] and decoder.waiting_escape
    assert names(decoder.flush(0.05)) == tap("back")
    assert not decoder.waiting_escape


def test_sequence_split_across_reads():
    decoder = KeyDecoder()
    assert decoder.feed(b"\x1b", 0) == []
    assert decoder.feed(b"[", 0) == []
    assert names(decoder.feed(b"Bk", 0)) == tap("down") + tap("up")
    assert decoder.feed("é".encode()[:1], 0) == []             # half a UTF-8 character
    assert names(decoder.feed("é".encode()[1:], 0)) == tap("seat2")


def test_escape_followed_by_a_key_is_back_then_that_key():
    assert names(KeyDecoder().feed(b"\x1bj", 0)) == tap("back") + tap("down")


def collect(q, count, timeout=2.0):
    return [q.get(timeout=timeout) for _ in range(count)]


def test_reader_on_a_pipe():
    r, w = os.pipe()
    events = queue.Queue()
    reader = KeyboardReader(r, events, clock=lambda: 7.0).start()
    try:
        os.write(w, b"\x1b[Aj\r1")
        got = collect(events, 12)
        assert names(got) == tap("up") + tap("down") + tap("ok") + tap("seat1")
        assert {e.t for e in got} == {7.0}
        os.write(w, b"\x1b")                                    # a lone Esc, then silence
        assert names(collect(events, 3)) == tap("back")
        os.close(w)
        assert names(collect(events, 1)) == [("keyboard", "eof")]
        assert reader.eof
    finally:
        reader.stop()
        os.close(r)


def test_reader_on_a_pty_switches_to_cbreak_and_restores():
    master, slave = os.openpty()
    events = queue.Queue()
    before = termios.tcgetattr(slave)
    assert before[3] & termios.ICANON
    reader = KeyboardReader(slave, events).start()
    try:
        during = termios.tcgetattr(slave)
        assert not during[3] & termios.ICANON and not during[3] & termios.ECHO
        os.write(master, b"k")                 # no newline: only cbreak delivers it now
        assert names(collect(events, 3)) == tap("up")
    finally:
        reader.stop()
    assert termios.tcgetattr(slave)[3] & termios.ICANON
    os.close(master)
    os.close(slave)
