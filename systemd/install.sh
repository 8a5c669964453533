#!/usr/bin/env bash
# Install Corbeille as a service on Raspberry Pi OS (Bookworm), from this checkout.
#
#   sudo systemd/install.sh             install, or update after a git pull
#   systemd/install.sh --dry-run        print every step, change nothing (no root needed)
#
# Safe to run again: each step checks before it acts, and an existing
# /etc/corbeille/corbeille.toml is never overwritten. See docs/service.md.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV=/opt/corbeille/venv
CONF=/etc/corbeille/corbeille.toml
UNIT=/etc/systemd/system/corbeille.service
SERVICE_USER=corbeille
DEVICE_GROUPS=(gpio i2c spi dialout)
# python3-dev builds the C extensions piwheels has no wheel for; the libraries are what
# Pillow's piwheels wheels link against; i2c-tools gives i2cdetect for checking the wiring.
APT_PACKAGES=(python3-venv python3-dev libopenjp2-7 libjpeg62-turbo libtiff6 i2c-tools)

DRY_RUN=0

usage() { sed -n '2,5s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

# Every change goes through run: printed always, executed unless --dry-run.
run() {
    echo "+ $*"
    if (( ! DRY_RUN )); then "$@"; fi
}

# The example has every key commented out (the desktop defaults); a Pi has its OLED, so
# switch on [operator] and set its type, in place, where the user will look for it.
pi_config() {
    sed -e 's/^#\[operator\]$/[operator]/' \
        -e '/^\[operator\]$/,/^#\[/ s/^#type = "terminal"$/type = "oled"/' \
        "$SRC/firmware/corbeille.example.toml"
}

main() {
    case "${1:-}" in
        "") ;;
        --dry-run) DRY_RUN=1 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; exit 2 ;;
    esac

    if (( ! DRY_RUN )) && (( EUID != 0 )); then
        echo "install.sh: must run as root: sudo $0 (or $0 --dry-run to see the steps)" >&2
        exit 1
    fi

    echo "== Packages"
    run apt-get update
    run apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"

    echo "== User $SERVICE_USER and device groups"
    for group in "${DEVICE_GROUPS[@]}"; do
        # Raspberry Pi OS has them; elsewhere create them so the unit's
        # SupplementaryGroups= does not fail the start.
        getent group "$group" >/dev/null || run groupadd --system "$group"
    done
    groups_csv=$(IFS=,; echo "${DEVICE_GROUPS[*]}")
    if id -u "$SERVICE_USER" >/dev/null 2>&1; then
        run usermod --append --groups "$groups_csv" "$SERVICE_USER"
    else
        # No shell, no home of its own: systemd creates /var/lib/corbeille (StateDirectory=).
        run useradd --system --user-group --no-create-home --home-dir /var/lib/corbeille \
            --shell /usr/sbin/nologin --groups "$groups_csv" "$SERVICE_USER"
    fi

    echo "== I2C, SPI and UART"
    if command -v raspi-config >/dev/null; then
        run raspi-config nonint do_i2c 0            # 0 means "enable"
        run raspi-config nonint do_spi 0
        if grep -q do_serial_hw "$(command -v raspi-config)"; then
            run raspi-config nonint do_serial_hw 0  # UART on GPIO 14/15 ...
            run raspi-config nonint do_serial_cons 1  # ... without a login console on it
        else
            run raspi-config nonint do_serial 2     # older raspi-config: UART on, console off
        fi
    else
        echo "raspi-config not found: enable I2C, SPI and the UART by hand (hardware/README.md)"
    fi
    boot_config=/boot/firmware/config.txt
    [[ -f $boot_config ]] || boot_config=/boot/config.txt
    if [[ -f $boot_config ]] && ! grep -q '^dtparam=i2c_arm_baudrate=' "$boot_config"; then
        # 400 kHz: an OLED frame takes about 25 ms instead of 100 ms.
        run sh -c "echo dtparam=i2c_arm_baudrate=400000 >> $boot_config"
    fi

    echo "== Python environment $VENV"
    [[ -x $VENV/bin/python ]] || run python3 -m venv "$VENV"
    run "$VENV/bin/pip" install --upgrade "$SRC[pi]"

    echo "== Configuration $CONF"
    if [[ -e $CONF ]]; then
        echo "keeping $CONF (never overwritten; compare with $SRC/firmware/corbeille.example.toml)"
    else
        run install -d -m 0755 "$(dirname "$CONF")"
        echo "+ write $CONF: firmware/corbeille.example.toml with [operator] type = \"oled\""
        if (( ! DRY_RUN )); then
            pi_config > "$CONF"
            chmod 0644 "$CONF"
        fi
    fi
    # Refuse to (re)start the service on a configuration it would reject anyway: the error
    # shows here, naming the key, rather than in the journal.
    run "$VENV/bin/python" -I -c "from firmware.config import load_config; load_config('$CONF')"

    echo "== Service"
    run install -m 0644 "$SRC/systemd/corbeille.service" "$UNIT"
    run systemctl daemon-reload
    run systemctl enable corbeille.service
    # restart, not enable --now: on an update the running service must pick up the new code.
    run systemctl restart corbeille.service

    if (( ! DRY_RUN )) && [[ ! -e /dev/i2c-1 ]]; then
        echo "Reboot once so that I2C, SPI and the UART are switched on: sudo reboot"
    fi
    echo "Done. Status: systemctl status corbeille; logs: journalctl -u corbeille -f"
}

# Run only when executed, so tests can source the file and call pi_config.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    main "$@"
fi
