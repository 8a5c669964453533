#!/usr/bin/env bash
# Install Corbeille as a service on Raspberry Pi OS Bookworm, from this checkout.
#
#   sudo systemd/install.sh              install, or update after a git pull
#   systemd/install.sh --dry-run         print every step, change nothing (no root needed)
#   sudo systemd/install.sh --uninstall  stop and remove the service and the venv
#                                        (the configuration and the game journal stay)
#   sudo systemd/install.sh --venue      also make this Pi a club's venue host: Mosquitto
#                                        with Corbeille's configuration, corbeille-venue
#
# Supported: Raspberry Pi Zero 2 W, 3, 4, 400 and 5 on Raspberry Pi OS Bookworm (Lite or
# desktop), 64-bit (aarch64) or 32-bit on an ARMv7 kernel (armv7l); a plain Debian 12
# arm64 system takes the PyPI wheels instead of Raspberry Pi OS's packages. Not supported:
# the Pi 1, Zero and Zero W (armv6l: no lgpio for them). See docs/hardware.md.
#
# Safe to run again: each step checks before it acts, says "ok" when nothing needs doing,
# and the steps that changed something are listed at the end. An existing
# /etc/corbeille/corbeille.toml is never overwritten. See docs/service.md.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV=/opt/corbeille/venv
CONF=/etc/corbeille/corbeille.toml
UNIT_DIR=/etc/systemd/system
# The service, and the pair that powers the box off when the service asks (docs/service.md).
UNITS=(corbeille.service corbeille-poweroff.path corbeille-poweroff.service corbeille-web.service
       corbeille-publish.service)
SERVICE_USER=corbeille
DEVICE_GROUPS=(gpio i2c spi dialout)
# Where the facts about this machine are read (model, OS, boot files). Tests point it at a
# folder that looks like a Pi's root; the commands themselves always act on this machine.
SYSROOT=${CORBEILLE_SYSROOT:-}
MACHINE=${CORBEILLE_MACHINE:-$(uname -m)}

# Always from apt: venv support, and i2cdetect for checking the wiring.
APT_BASE=(python3-venv i2c-tools)
# Raspberry Pi OS builds these for its own kernel and every model (Pi 5 included): lgpio,
# RPi.GPIO's API on top of lgpio (luma's SPI interface and Waveshare's library import
# RPi.GPIO, whose own build fails on a Pi 5), spidev, smbus2, pyserial. Elsewhere each one
# Debian lacks comes from PyPI instead (lgpio has cp311 wheels for aarch64 and armv7l).
APT_PI_PYTHON=(python3-lgpio python3-rpi-lgpio python3-spidev python3-smbus2 python3-serial)
# The web view (docs/web.md) and the QR codes, in the versions Bookworm ships (Starlette
# 0.26, uvicorn 0.17, Jinja2 3.1, segno 1.4) on Raspberry Pi OS and Debian alike.
APT_WEB=(python3-starlette python3-uvicorn python3-jinja2 python3-segno)
# The venue's publisher (docs/venue.md): paho-mqtt as Bookworm ships it (1.6).
APT_VENUE=(python3-paho-mqtt)
AVAHI_SERVICE=/etc/avahi/services/corbeille.service
# The libraries piwheels' Pillow links against (Raspberry Pi OS's pip uses piwheels).
APT_PILLOW_LIBS=(libopenjp2-7 libjpeg62-turbo libtiff6)

DRY_RUN=0
CHANGED=()

usage() { sed -n '2,9s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

# Every change goes through run: printed always, executed unless --dry-run, and listed in
# the summary. Checks that find nothing to do print "ok: ..." instead.
run() {
    echo "+ $*"
    CHANGED+=("$*")
    if (( ! DRY_RUN )); then "$@"; fi
}
ok() { echo "ok: $*"; }
# A check that changes nothing: printed, executed unless --dry-run, not counted as a change.
check() {
    echo "+ $*"
    if (( ! DRY_RUN )); then "$@"; fi
}

# ---- Facts about this machine

os_kind() {
    # Raspberry Pi OS: /etc/rpi-issue on every image; ID=raspbian on the 32-bit one.
    if [[ -e $SYSROOT/etc/rpi-issue ]] || grep -qs '^ID=raspbian' "$SYSROOT/etc/os-release"; then
        echo raspios
    elif grep -qs '^ID=debian' "$SYSROOT/etc/os-release"; then
        echo debian
    else
        echo other
    fi
}

os_codename() {
    sed -n 's/^VERSION_CODENAME=//p' "$SYSROOT/etc/os-release" 2>/dev/null | tr -d '"'
}

# "Raspberry Pi 4 Model B Rev 1.4", or "" off a Pi (the file ends with a NUL byte).
pi_model() {
    if [[ -r $SYSROOT/proc/device-tree/model ]]; then
        tr -d '\0' < "$SYSROOT/proc/device-tree/model"
    fi
}

is_pi5() { [[ $(pi_model) == "Raspberry Pi 5"* ]]; }

boot_dir() {
    # Bookworm moved the boot partition to /boot/firmware.
    if [[ -f $SYSROOT/boot/firmware/config.txt ]]; then echo /boot/firmware
    elif [[ -f $SYSROOT/boot/config.txt ]]; then echo /boot
    fi
}

# Those of the packages named that apt can install here (it knows a candidate version), one
# a line. One apt-cache call for all: reading apt's cache is most of each call's time.
apt_installable() {
    { apt-cache policy "$@" 2>/dev/null || true; } |
        awk '/^[^ ].*:$/ { pkg = substr($0, 1, length($0) - 1) } /^  Candidate: [^(]/ { print pkg }'
}

# ---- Steps

# The example has every key commented out (the desktop defaults); a Pi has its OLED, so
# switch on [operator] and set its type, in place, where the user will look for it.
pi_config() {
    sed -e 's/^#\[operator\]$/[operator]/' \
        -e '/^\[operator\]$/,/^#\[/ s/^#type = "terminal"$/type = "oled"/' \
        "$SRC/firmware/corbeille.example.toml"
}

check_machine() {
    local model kind codename
    model=$(pi_model); kind=$(os_kind); codename=$(os_codename)
    echo "machine: ${model:-not a Raspberry Pi}, $MACHINE, $kind ${codename:-?}"
    case $MACHINE in
        aarch64|armv7l|x86_64) ;;
        armv6l)
            echo "install.sh: $MACHINE (Pi 1, Zero, Zero W) is not supported: lgpio, the pin" \
                 "library, has no build for it. Use a Zero 2 W, 3, 4 or 5." >&2
            exit 1 ;;
        *) echo "install.sh: $MACHINE is not supported (aarch64 or armv7l)" >&2; exit 1 ;;
    esac
    if [[ $codename != bookworm ]]; then
        echo "warning: written and tested for Bookworm (Debian 12), this is '${codename:-unknown}'"
    fi
}

install_packages() {
    echo "== Packages"
    local kind apt_list=("${APT_BASE[@]}" "${APT_WEB[@]}" "${APT_VENUE[@]}") from_pypi=()
    kind=$(os_kind)
    if [[ $kind == raspios ]]; then
        apt_list+=("${APT_PI_PYTHON[@]}" "${APT_PILLOW_LIBS[@]}")
    else
        local installable
        installable=$(apt_installable "${APT_PI_PYTHON[@]}")
        for pkg in "${APT_PI_PYTHON[@]}"; do
            if grep -qxF -- "$pkg" <<<"$installable"; then apt_list+=("$pkg"); else from_pypi+=("$pkg"); fi
        done
    fi
    local missing=() status
    for pkg in "${apt_list[@]}"; do
        status=$(dpkg-query --admindir="$SYSROOT/var/lib/dpkg" -W -f='${Status}' "$pkg" 2>/dev/null) || true
        [[ $status == "install ok installed" ]] || missing+=("$pkg")
    done
    if (( ${#missing[@]} )); then
        run apt-get update
        run apt-get install -y --no-install-recommends "${missing[@]}"
    else
        ok "installed: ${apt_list[*]}"
    fi
    if (( ${#from_pypi[@]} )); then
        echo "not in this system's packages, pip takes them from PyPI: ${from_pypi[*]}"
    fi
}

install_user() {
    echo "== User $SERVICE_USER and device groups"
    for group in "${DEVICE_GROUPS[@]}"; do
        # Raspberry Pi OS has them; elsewhere create them so the unit's
        # SupplementaryGroups= does not fail the start.
        if getent group "$group" >/dev/null; then ok "group $group"; else run groupadd --system "$group"; fi
    done
    local groups_csv missing=() current
    groups_csv=$(IFS=,; echo "${DEVICE_GROUPS[*]}")
    if id -u "$SERVICE_USER" >/dev/null 2>&1; then
        current=" $(id -nG "$SERVICE_USER") "
        for group in "${DEVICE_GROUPS[@]}"; do
            [[ $current == *" $group "* ]] || missing+=("$group")
        done
        if (( ${#missing[@]} )); then
            run usermod --append --groups "$groups_csv" "$SERVICE_USER"
        else
            ok "user $SERVICE_USER in ${DEVICE_GROUPS[*]}"
        fi
    else
        # No shell, no home of its own: systemd creates /var/lib/corbeille (StateDirectory=).
        run useradd --system --user-group --no-create-home --home-dir /var/lib/corbeille \
            --shell /usr/sbin/nologin --groups "$groups_csv" "$SERVICE_USER"
    fi
}

install_venv() {
    echo "== Python environment $VENV"
    # --system-site-packages: the venv sees the apt-installed lgpio, spidev... so pip
    # installs only what the system lacks. An older venv made without it is made again.
    if [[ -x $VENV/bin/python ]] && grep -qs '^include-system-site-packages = true' "$VENV/pyvenv.cfg"; then
        ok "$VENV (with system site packages)"
    else
        [[ -e $VENV ]] && run rm -rf "$VENV"
        run python3 -m venv --system-site-packages "$VENV"
    fi
    # --upgrade upgrades Corbeille itself; its dependencies only when too old or missing,
    # so apt's versions of the hardware libraries are kept.
    # --use-pep517: Bookworm's pip 23.0 would otherwise fall back to "setup.py install".
    run "$VENV/bin/pip" install --use-pep517 --upgrade --upgrade-strategy only-if-needed "$SRC[pi,web,venue]"
    # Waveshare's e-ink library declares RPi.GPIO, which cannot be built for a Pi 5 and
    # would shadow rpi-lgpio's RPi.GPIO module: it is installed without its dependencies,
    # which rpi-lgpio and spidev (above) provide.
    run "$VENV/bin/pip" install --upgrade --no-deps "waveshare-epaper>=1.3"
}

install_config() {
    echo "== Configuration $CONF"
    if [[ -e $CONF ]]; then
        ok "keeping $CONF (never overwritten; compare with $SRC/firmware/corbeille.example.toml)"
    else
        run install -d -m 0755 "$(dirname "$CONF")"
        echo "+ write $CONF: firmware/corbeille.example.toml with [operator] type = \"oled\""
        CHANGED+=("write $CONF")
        if (( ! DRY_RUN )); then
            pi_config > "$CONF"
            chmod 0644 "$CONF"
        fi
    fi
    # Refuse to (re)start the service on a configuration it would reject anyway: the error
    # shows here, naming the key, rather than in the journal.
    check "$VENV/bin/python" -I -c "from firmware.config import load_config; load_config('$CONF')"
}

# Does the configuration put a device on the serial port? Then the login console must go.
# System Python (3.11 on Bookworm) reads the TOML: this runs before the venv exists too.
uart_needed() {
    [[ -e $SYSROOT$CONF ]] || return 1
    python3 -I -c "
import sys, tomllib
with open(sys.argv[1], 'rb') as f:
    data = tomllib.load(f)
sys.exit(0 if any(data.get(part, {}).get('enabled') for part in ('rfid', 'console')) else 1)
" "$SYSROOT$CONF" 2>/dev/null
}

# A config.txt line, added once.
boot_line() {
    local file=$1 line=$2
    if grep -qsx "$line" "$SYSROOT$file"; then ok "$file has $line"
    else run sh -c "echo '$line' >> '$file'"; fi
}

install_buses() {
    echo "== I2C, SPI and UART"
    local boot console_off=0
    # What raspi-config nonint do_i2c 0, do_spi 0 and do_serial_hw 0 write.
    local lines=("dtparam=i2c_arm=on" "dtparam=spi=on" "enable_uart=1")
    # Added in every case: on a Pi 5 serial0 is the debug connector and GPIO 14/15 are
    # UART0 (/dev/ttyAMA0), switched on by its own line; 400 kHz I2C sends an OLED frame
    # in about 25 ms instead of 100 ms.
    local extra=()
    is_pi5 && extra+=("dtparam=uart0=on")
    extra+=("dtparam=i2c_arm_baudrate=400000")
    uart_needed && console_off=1
    boot=$(boot_dir)

    if [[ -z $boot ]]; then
        echo "no config.txt under /boot/firmware or /boot (not a Raspberry Pi OS image):"
        echo "on the Pi, add to config.txt:"; printf '    %s\n' "${lines[@]}" "${extra[@]}"
        (( console_off )) && echo "    and remove console=serial0,115200 from cmdline.txt"
        return 0
    fi
    if command -v raspi-config >/dev/null && (( ! DRY_RUN )); then
        run raspi-config nonint do_i2c 0            # 0 means "enable"
        run raspi-config nonint do_spi 0
        run raspi-config nonint do_serial_hw 0      # UART on GPIO 14/15
        (( console_off )) && run raspi-config nonint do_serial_cons 1   # no login console on it
    else
        # The lines raspi-config would write, added by hand (and all a dry run shows).
        for line in "${lines[@]}"; do boot_line "$boot/config.txt" "$line"; done
        if (( console_off )) && grep -qs 'console=serial0' "$SYSROOT$boot/cmdline.txt"; then
            run sed -i 's/ *console=serial0,[0-9]*//' "$boot/cmdline.txt"
        fi
    fi
    (( console_off )) || ok "serial login console left alone (no serial device configured)"
    for line in "${extra[@]}"; do boot_line "$boot/config.txt" "$line"; done
    if (( ! DRY_RUN )) && [[ ! -e /dev/i2c-1 ]]; then
        echo "Reboot once so that I2C, SPI and the UART are switched on: sudo reboot"
    fi
}

# The web view's reachability (docs/web.md): the page announced by Avahi where it runs
# (Raspberry Pi OS ships it), and the box's own Wi-Fi when the configuration asks for it.
install_network() {
    echo "== Web view on the network"
    local corbeille=$VENV/bin/corbeille
    if [[ -d $SYSROOT/etc/avahi/services ]]; then
        if [[ -x $corbeille ]] && cmp -s <("$corbeille" --config "$CONF" web --avahi-service) "$AVAHI_SERVICE"; then
            ok "$AVAHI_SERVICE"
        else
            echo "+ write $AVAHI_SERVICE"; CHANGED+=("write $AVAHI_SERVICE")
            if (( ! DRY_RUN )); then
                "$corbeille" --config "$CONF" web --avahi-service > "$AVAHI_SERVICE"
            fi
        fi
    else
        ok "no Avahi here (/etc/avahi/services): the page is reached by its address"
    fi
    if ! wants_access_point; then
        ok "no access point asked for ([web] access_point)"
    elif ! command -v nmcli >/dev/null; then
        echo "[web] access_point is on but NetworkManager (nmcli) is not here: no access point made"
    elif nmcli -t -f NAME connection show 2>/dev/null | grep -qx corbeille-ap; then
        ok "access point profile corbeille-ap (remove it with nmcli connection delete corbeille-ap to change it)"
    else
        local command
        command=$("$corbeille" --config "$CONF" web --access-point)
        eval "run $command"
    fi
}

# Does the configuration ask for the box's own Wi-Fi ([web] enabled and access_point)?
wants_access_point() {
    [[ -e $SYSROOT$CONF ]] || return 1
    python3 -I -c "
import sys, tomllib
with open(sys.argv[1], 'rb') as f:
    web = tomllib.load(f).get('web', {})
sys.exit(0 if web.get('enabled') and web.get('access_point') else 1)
" "$SYSROOT$CONF" 2>/dev/null
}

install_units() {
    echo "== Service"
    for unit in "${UNITS[@]}"; do
        if cmp -s "$SRC/systemd/$unit" "$UNIT_DIR/$unit"; then ok "$UNIT_DIR/$unit"
        else run install -m 0644 "$SRC/systemd/$unit" "$UNIT_DIR/$unit"; fi
    done
    if [[ -d /run/systemd/system ]] || (( DRY_RUN )); then
        run systemctl daemon-reload
        run systemctl enable corbeille.service corbeille-poweroff.path corbeille-web.service corbeille-publish.service
        run systemctl start corbeille-poweroff.path
        # restart, not enable --now: on an update the running service must pick up the new code.
        # The web view's and the publisher's units start only when [web] and [venue] enable
        # them (their ExecCondition).
        run systemctl restart corbeille.service corbeille-web.service corbeille-publish.service
    elif systemctl is-enabled --quiet corbeille.service corbeille-poweroff.path corbeille-web.service corbeille-publish.service 2>/dev/null; then
        ok "enabled: corbeille.service corbeille-poweroff.path corbeille-web.service corbeille-publish.service"
        echo "systemd is not running here (a chroot, an image being built): the service starts at boot"
    else
        # A chroot or an image being built: enable works offline, starting waits for boot.
        run systemctl enable corbeille.service corbeille-poweroff.path corbeille-web.service corbeille-publish.service
        echo "systemd is not running here (a chroot, an image being built): the service starts at boot"
    fi
}

# A club's venue host (docs/venue.md): Debian's Mosquitto started with the shipped
# configuration (a drop-in for its unit), its ACL, an empty password file for the accounts
# (made by hand with mosquitto_passwd: no password is invented here), and the venue's unit.
MOSQUITTO_DIR=/etc/mosquitto
MOSQUITTO_DROP_IN=$UNIT_DIR/mosquitto.service.d/corbeille.conf
install_venue_host() {
    echo "== Venue host"
    local status
    status=$(dpkg-query --admindir="$SYSROOT/var/lib/dpkg" -W -f='${Status}' mosquitto 2>/dev/null) || true
    if [[ $status == "install ok installed" ]]; then ok "installed: mosquitto"
    else run apt-get install -y --no-install-recommends mosquitto; fi
    for file in corbeille.conf corbeille.acl; do
        if cmp -s "$SRC/systemd/mosquitto/$file" "$MOSQUITTO_DIR/$file"; then ok "$MOSQUITTO_DIR/$file"
        else run install -m 0644 "$SRC/systemd/mosquitto/$file" "$MOSQUITTO_DIR/$file"; fi
    done
    if cmp -s "$SRC/systemd/mosquitto/mosquitto-override.conf" "$MOSQUITTO_DROP_IN"; then ok "$MOSQUITTO_DROP_IN"
    else run install -D -m 0644 "$SRC/systemd/mosquitto/mosquitto-override.conf" "$MOSQUITTO_DROP_IN"; fi
    if [[ -e $MOSQUITTO_DIR/corbeille.passwd ]]; then ok "$MOSQUITTO_DIR/corbeille.passwd (its accounts kept)"
    else run install -m 0600 -o mosquitto -g mosquitto /dev/null "$MOSQUITTO_DIR/corbeille.passwd"; fi
    if cmp -s "$SRC/systemd/corbeille-venue.service" "$UNIT_DIR/corbeille-venue.service"; then
        ok "$UNIT_DIR/corbeille-venue.service"
    else run install -m 0644 "$SRC/systemd/corbeille-venue.service" "$UNIT_DIR/corbeille-venue.service"; fi
    if [[ -d /run/systemd/system ]] || (( DRY_RUN )); then
        run systemctl daemon-reload
        run systemctl enable mosquitto.service corbeille-venue.service
        run systemctl restart mosquitto.service corbeille-venue.service
    fi
    echo "Accounts: sudo mosquitto_passwd $MOSQUITTO_DIR/corbeille.passwd venue (then each table by its name)," \
         "sudo systemctl reload mosquitto; [venue] in $CONF names the venue's account (docs/venue.md)"
}

uninstall() {
    echo "== Uninstall"
    if [[ -d /run/systemd/system ]] || (( DRY_RUN )); then
        run systemctl disable --now corbeille.service corbeille-poweroff.path corbeille-web.service corbeille-publish.service
        if [[ -e $UNIT_DIR/corbeille-venue.service ]]; then run systemctl disable --now corbeille-venue.service; fi
    fi
    if [[ -e $AVAHI_SERVICE ]]; then run rm -f "$AVAHI_SERVICE"; fi
    for unit in "${UNITS[@]}" corbeille-venue.service; do
        if [[ -e $UNIT_DIR/$unit ]]; then run rm -f "$UNIT_DIR/$unit"; else ok "no $UNIT_DIR/$unit"; fi
    done
    [[ -d /run/systemd/system ]] && run systemctl daemon-reload
    if [[ -e /opt/corbeille ]]; then run rm -rf /opt/corbeille; else ok "no /opt/corbeille"; fi
    echo "kept: $CONF (your settings), /var/lib/corbeille (the game journal), the user" \
         "$SERVICE_USER and the I2C/SPI/UART settings. Remove them by hand if you want:" \
         "sudo rm -r /etc/corbeille /var/lib/corbeille; sudo userdel $SERVICE_USER"
}

summary() {
    if (( ${#CHANGED[@]} == 0 )); then
        echo "Nothing to change: already installed."
    else
        local verb=changed
        (( DRY_RUN )) && verb="would change"
        echo "${#CHANGED[@]} steps $verb this system (the lines starting with +)."
    fi
}

main() {
    local action=install venue=0
    for arg in "$@"; do
        case $arg in
            --dry-run) DRY_RUN=1 ;;
            --venue) venue=1 ;;
            --uninstall) action=uninstall ;;
            -h|--help) usage; exit 0 ;;
            *) usage >&2; exit 2 ;;
        esac
    done

    if (( ! DRY_RUN )) && (( EUID != 0 )); then
        echo "install.sh: must run as root: sudo $0 (or $0 --dry-run to see the steps)" >&2
        exit 1
    fi
    if [[ $action == uninstall ]]; then
        uninstall
    else
        check_machine
        install_packages
        install_user
        install_venv
        install_config
        install_buses
        install_network
        install_units
        if (( venue )); then install_venue_host; fi
        echo "Status: systemctl status corbeille; logs: journalctl -u corbeille -f"
    fi
    summary
}

# Run only when executed, so tests can source the file and call pi_config.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    main "$@"
fi
