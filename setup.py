"""Corbeille: an electronic banker and quotation keeper for French stock-market board games."""
from setuptools import find_namespace_packages, setup

setup(
    name="corbeille",
    version="0.1.0",
    description="Electronic banker and quotation-table keeper for stock-market board games",
    long_description=open("README.md", encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    python_requires=">=3.11",
    # The data folders (locale/, box/) are listed as namespace packages, so setuptools
    # knows they ship on purpose and prints no "absent from the packages configuration".
    packages=find_namespace_packages(include=["engines", "engines.*", "drivers", "drivers.*",
                                              "firmware", "firmware.*"],
                                     exclude=["*.__pycache__"]),
    package_data={
        "engines": ["*/locale/*.json", "*/box/*.toml", "*/box/*.csv"],
        "firmware": ["locale/*.json", "*.toml", "web/templates/*.html", "web/static/*", "venue/templates/*.html"],
    },
    include_package_data=True,
    install_requires=[
        "gpiozero>=2.0",
        "luma.core>=2.4",
        "luma.oled>=3.13",
        "pyserial>=3.5",
        "Pillow>=10",
        "segno>=1.4",          # the QR codes of the web view's links, drawn on the operator screen
    ],
    extras_require={
        # On the Raspberry Pi (Zero 2 W to 5; aarch64 or armv7l, docs/hardware.md): lgpio is
        # gpiozero's pin backend; rpi-lgpio gives luma's SPI interface and Waveshare's library
        # the RPi.GPIO module on every model (RPi.GPIO itself fails on a Pi 5). Raspberry Pi
        # OS ships them as apt packages, which systemd/install.sh uses; these are for the rest.
        # waveshare-epaper is installed by install.sh with --no-deps: it declares RPi.GPIO.
        "pi": [
            "lgpio>=0.2; platform_machine=='aarch64' or platform_machine=='armv7l'",
            "rpi-lgpio>=0.4; platform_machine=='aarch64' or platform_machine=='armv7l'",
            "inky>=2.0",
            "smbus2>=0.4",
            "spidev>=3.6",
        ],
        # The table's live web view, `corbeille web` (docs/web.md), as Raspberry Pi OS
        # Bookworm ships them (apt: python3-starlette 0.26, python3-uvicorn 0.17,
        # python3-jinja2 3.1, which systemd/install.sh installs).
        "web": ["starlette>=0.26", "uvicorn>=0.17", "jinja2>=3.1"],
        # A club's evening on an MQTT broker (docs/venue.md): the box's publisher and the
        # venue's process, written to paho-mqtt 1.6 (Bookworm's python3-paho-mqtt) and 2.x.
        "venue": ["paho-mqtt>=1.6"],
        # Desktop tests: fake-rpi stands in for RPi.GPIO and smbus so luma's real
        # interface code runs; hypothesis drives the property tests; pylint finds code
        # written twice (tests/house/test_house.py).
        "test": [
            "pytest>=8",
            "pytest-xdist>=3.5",   # `make test` on every CPU (README's dependency notes)
            "hypothesis>=6.100",
            "fake-rpi>=0.7",
            "luma.emulator>=1.5",  # the desktop window display is tested too (pygame, SDL dummy driver)
            "starlette>=0.26", "uvicorn>=0.17", "jinja2>=3.1",   # the web view ([web])
            "paho-mqtt>=1.6",      # the venue ([venue]), against a real Mosquitto
            "httpx",               # Starlette's test client
            "selenium>=4.8",       # the web view in a real browser: Debian's chromium and chromedriver
            "pylint>=4.1.4,<4.2",  # its duplicate-code checker, whose private entry points tests/house/test_house.py calls
        ],
        # A window on the desktop instead of the terminal: `corbeille sim --window`.
        "desktop": ["luma.emulator>=1.5"],
    },
    entry_points={"console_scripts": ["corbeille=firmware.cli:main"]},
)
