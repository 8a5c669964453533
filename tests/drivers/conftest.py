"""Fixtures shared by the driver tests: a manual clock and gpiozero's mock pins."""
import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from drivers.clock import ManualClock


@pytest.fixture
def clock():
    return ManualClock(start=100.0)


@pytest.fixture
def pins():
    """A fresh MockFactory per test, passed explicitly (nothing global is patched)."""
    factory = MockFactory()
    yield factory
    factory.close()


@pytest.fixture
def pwm_pins():
    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.close()


@pytest.fixture(autouse=True)
def no_global_pin_factory():
    """A driver that forgot its pin_factory would silently use the global one: forbid it."""
    saved = Device.pin_factory
    Device.pin_factory = None
    yield
    Device.pin_factory = saved


def pytest_collection_modifyitems(items):
    # luma.oled 3.16 calls Image.getdata, deprecated in Pillow 13: not ours to fix here.
    for item in items:
        if "tests/drivers" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.filterwarnings(
                "ignore:Image.Image.getdata is deprecated:DeprecationWarning"))
