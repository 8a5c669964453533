#!/usr/bin/env bash
# make test-arm64: systemd/install.sh for real on Debian 12 arm64, under qemu-user.
#
# 1. Builds (once, then cached under ${XDG_CACHE_HOME:-~/.cache}/corbeille) a minimal
#    Debian Bookworm arm64 root with debootstrap; qemu-aarch64 runs its programs through
#    binfmt_misc, which this script mounts and registers.
# 2. On a throw-away overlay of that root (the cache stays pristine):
#    a. install.sh --dry-run on a folder laid out like Raspberry Pi OS on a Pi 5: the apt
#       path (all five hardware libraries from apt, uart0 on the header);
#    b. install.sh for real on the plain Debian root: apt, the venv with system site
#       packages, the PyPI wheels for what Debian lacks (lgpio, rpi-lgpio), user and
#       groups, unit files enabled; then again, which must change only the pip steps;
#    c. `corbeille run` with gpiozero's mock pins, until it reports READY=1 (its first
#       frame) on a notify socket, then SIGTERM and a clean exit;
#    d. apt's Starlette, uvicorn, Jinja2 and segno (Bookworm's) in the venv, and
#       `corbeille web` serving the page and its event stream beside `corbeille run`.
# Where it cannot run (not root, binfmt_misc not mountable, no qemu or debootstrap to be
# had, the archive unreachable) it says why and exits 0: a skip, never a CI failure.
# A check that fails inside the root exits 1.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/corbeille
ROOTFS=$CACHE/arm64-bookworm
SUITE=bookworm
# What the root holds before the installer runs: what a Debian Lite image has anyway.
BASE_PACKAGES=systemd,python3,python3-venv,ca-certificates

say() { echo "test-arm64: $*"; }
skip() { say "SKIPPED: $*"; exit 0; }
fail() { say "FAILED: $*" >&2; exit 1; }
elapsed() { echo "$(( SECONDS / 60 )) min $(( SECONDS % 60 )) s"; }

# ---- Outside: tools, binfmt_misc, the cached root

prepare() {
    (( EUID == 0 )) || skip "needs root (debootstrap, chroot, mounts)"
    if [[ ! -e /proc/sys/fs/binfmt_misc/register ]]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null \
            || skip "binfmt_misc cannot be mounted here (a container without that right)"
    fi
    local need=()
    command -v qemu-aarch64-static >/dev/null || need+=(qemu-user-static)
    command -v debootstrap >/dev/null || need+=(debootstrap)
    if (( ${#need[@]} )); then
        say "installing ${need[*]}"
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"; } \
            >/dev/null 2>&1 || skip "cannot install ${need[*]} with apt-get"
    fi
    if [[ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]]; then
        local conf=/usr/lib/binfmt.d/qemu-aarch64.conf
        [[ -f $conf ]] || skip "qemu-user-static has no $conf"
        # Its flags include F: the kernel opens qemu now, so it runs inside the chroot too.
        cat "$conf" > /proc/sys/fs/binfmt_misc/register 2>/dev/null \
            || skip "qemu-aarch64 cannot be registered with binfmt_misc"
    fi
    [[ $(cat /proc/sys/fs/binfmt_misc/qemu-aarch64) == enabled* ]] || skip "qemu-aarch64 is registered but disabled"

    if [[ ! -e $ROOTFS/.complete ]]; then
        local mirror
        mirror=$(debian_mirror) || skip "no Debian archive in this machine's apt sources"
        say "building the $SUITE arm64 root in $ROOTFS (a few minutes, once)"
        rm -rf "$ROOTFS.tmp"
        mkdir -p "$CACHE"
        if ! debootstrap --arch=arm64 --variant=minbase --include="$BASE_PACKAGES" \
                "$SUITE" "$ROOTFS.tmp" "$mirror" > "$CACHE/debootstrap.log" 2>&1; then
            tail -5 "$CACHE/debootstrap.log"
            rm -rf "$ROOTFS.tmp"
            skip "debootstrap failed (log: $CACHE/debootstrap.log): the archive is unreachable?"
        fi
        touch "$ROOTFS.tmp/.complete"
        rm -rf "$ROOTFS"                 # an unfinished earlier attempt
        mv "$ROOTFS.tmp" "$ROOTFS"
        say "root built in $(elapsed)"
    else
        say "cached root: $ROOTFS"
    fi
}

# The Debian archive this machine's own apt uses (deb822 or one-line sources).
debian_mirror() {
    local uri
    uri=$(sed -n 's/^URIs: *\([^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
    [[ -n $uri ]] || uri=$(awk '$1 == "deb" && $2 ~ /debian\/?$/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
    [[ -n $uri ]] && echo "$uri"
}

# ---- Inside a private mount namespace: the overlay, the checks

inside() {
    local work merged
    work=$(mktemp -d /tmp/corbeille-arm64.XXXXXX)
    merged=$work/merged
    # Unmount first: the cache folders are bind-mounted inside. --one-file-system as well,
    # so a mount left behind is never emptied through the chroot.
    # shellcheck disable=SC2064  # expanded now: the locals are gone when the trap runs
    trap "umount -R '$merged' 2>/dev/null; rm -rf --one-file-system '$work'" EXIT
    mkdir -p "$work/upper" "$work/work" "$merged"
    if ! mount -t overlay overlay -o "lowerdir=$ROOTFS,upperdir=$work/upper,workdir=$work/work" "$merged" 2>/dev/null; then
        say "no overlayfs here: copying the root instead"
        cp -a "$ROOTFS/." "$merged/"
    fi
    # A fresh /proc; /dev is the root's own (debootstrap made null, zero, urandom, tty...):
    # nothing of the machine's devices is reachable from inside.
    mount -t proc proc "$merged/proc"
    cp /etc/resolv.conf "$merged/etc/resolv.conf"
    # The machine's certificate bundle, so pip inside reaches PyPI the way it does outside.
    cp /etc/ssl/certs/ca-certificates.crt "$merged/etc/ssl/certs/host-bundle.crt"
    # apt's downloads kept between runs (pip's take seconds; installing under emulation
    # is what takes minutes).
    mkdir -p "$CACHE/apt-archives/partial"
    mount --bind "$CACHE/apt-archives" "$merged/var/cache/apt/archives"
    # The checkout as it is now (uncommitted changes included), without build leftovers.
    mkdir -p "$merged/srv/corbeille"
    tar -C "$SRC" --exclude=./.venv --exclude=./.git --exclude='*.egg-info' --exclude=__pycache__ \
        --exclude=./build -cf - . | tar -C "$merged/srv/corbeille" -xf -

    local in=(chroot "$merged" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
              LANG=C.UTF-8 PIP_CERT=/etc/ssl/certs/host-bundle.crt PIP_DISABLE_PIP_VERSION_CHECK=1
              PIP_DEFAULT_TIMEOUT=180 DEBIAN_FRONTEND=noninteractive)
    local passed=0
    [[ $("${in[@]}" uname -m) == aarch64 ]] || fail "the root does not run as aarch64"
    say "uname -m inside: aarch64 ($(elapsed))"

    # a. A root that looks like Raspberry Pi OS on a Pi 5: the apt path, dry run.
    local pios=$merged/tmp/pios
    mkdir -p "$pios/etc" "$pios/proc/device-tree" "$pios/boot/firmware"
    printf 'ID=debian\nVERSION_CODENAME=bookworm\n' > "$pios/etc/os-release"
    echo "Raspberry Pi reference 2024-11-19" > "$pios/etc/rpi-issue"
    printf 'Raspberry Pi 5 Model B Rev 1.0\0' > "$pios/proc/device-tree/model"
    : > "$pios/boot/firmware/config.txt"
    echo "console=serial0,115200 console=tty1 root=PARTUUID=1-02 rootwait" > "$pios/boot/firmware/cmdline.txt"
    local out
    out=$("${in[@]}" CORBEILLE_SYSROOT=/tmp/pios bash /srv/corbeille/systemd/install.sh --dry-run) \
        || fail "dry run on the Raspberry Pi OS root: $out"
    echo "$out" | grep -q "machine: Raspberry Pi 5 Model B Rev 1.0, aarch64, raspios bookworm" \
        || fail "the Raspberry Pi OS root was not recognised: $out"
    echo "$out" | grep -q "^+ apt-get install -y --no-install-recommends python3-venv i2c-tools python3-starlette python3-uvicorn python3-jinja2 python3-segno python3-paho-mqtt python3-lgpio python3-rpi-lgpio python3-spidev python3-smbus2 python3-serial" \
        || fail "the Raspberry Pi OS dry run does not take the five libraries from apt: $out"
    echo "$out" | grep -q "dtparam=uart0=on" || fail "no uart0 line for the Pi 5: $out"
    say "ok: Raspberry Pi OS dry run takes the apt path ($(elapsed))"; passed=$((passed + 1))

    # b. For real on plain Debian arm64.
    "${in[@]}" bash /srv/corbeille/systemd/install.sh > "$work/install1.log" 2>&1 \
        || { tail -30 "$work/install1.log"; fail "install.sh failed (log above)"; }
    grep -q "pip takes them from PyPI: python3-lgpio python3-rpi-lgpio" "$work/install1.log" \
        || { cat "$work/install1.log"; fail "the Debian fallback to PyPI was not taken"; }
    say "ok: install.sh ran on Debian arm64 ($(elapsed))"; passed=$((passed + 1))
    local groups
    groups=$("${in[@]}" id -nG corbeille)
    for group in gpio i2c spi dialout; do
        [[ " $groups " == *" $group "* ]] || fail "user corbeille is not in $group: $groups"
    done
    for unit in corbeille.service corbeille-poweroff.path corbeille-poweroff.service corbeille-web.service; do
        cmp -s "$SRC/systemd/$unit" "$merged/etc/systemd/system/$unit" || fail "$unit not installed"
    done
    [[ -L $merged/etc/systemd/system/multi-user.target.wants/corbeille.service ]] || fail "corbeille.service not enabled"
    [[ -L $merged/etc/systemd/system/multi-user.target.wants/corbeille-poweroff.path ]] || fail "the power-off path not enabled"
    [[ -L $merged/etc/systemd/system/multi-user.target.wants/corbeille-web.service ]] || fail "corbeille-web.service not enabled"
    grep -q '^include-system-site-packages = true' "$merged/opt/corbeille/venv/pyvenv.cfg" \
        || fail "the venv does not see the system's packages"
    say "ok: user, groups, units enabled, venv with system site packages"; passed=$((passed + 1))
    # rpi-lgpio reads the board revision from the device tree, which a root under qemu
    # lacks: RPI_LGPIO_REVISION stands in (c03114, a Pi 4 B 4 GB) for this import check only.
    "${in[@]}" RPI_LGPIO_REVISION=c03114 /opt/corbeille/venv/bin/python -c '
import importlib.metadata as md, lgpio, RPi.GPIO, spidev, smbus2, serial, inky, epaper, luma.oled, gpiozero
# waveshare-epaper (import name epaper) with the 7.5" V2 module the board uses.
assert "epd7in5_V2" in epaper.modules(), epaper.modules()
# Debian 12 has spidev, smbus2, pyserial: the venv must use those, not PyPI copies.
for module in (spidev, smbus2, serial):
    assert module.__file__.startswith("/usr/lib/python3/dist-packages/"), module.__file__
assert md.distribution("rpi-lgpio"), "RPi.GPIO must come from rpi-lgpio"
assert "RPi.GPIO" not in {d.metadata["Name"] for d in md.distributions()}, "the original RPi.GPIO got in"
print("imports:", lgpio.__file__, RPi.GPIO.__file__)
# The web view on the versions Bookworm ships, from apt (docs/web.md).
import starlette, uvicorn, jinja2, segno
for module, version in ((starlette, "0.26."), (uvicorn, "0.17."), (jinja2, "3.1."), (segno, "1.4.")):
    assert module.__file__.startswith("/usr/lib/python3/dist-packages/"), module.__file__
    assert md.version(module.__name__).startswith(version), (module.__name__, md.version(module.__name__))
' || fail "the venv cannot import the hardware and web libraries"
    say "ok: lgpio, rpi-lgpio (as RPi.GPIO), apt's spidev/smbus2/pyserial, inky, waveshare-epaper, apt's Starlette 0.26, uvicorn 0.17, Jinja2 3.1, segno 1.4 import"; passed=$((passed + 1))

    "${in[@]}" bash /srv/corbeille/systemd/install.sh > "$work/install2.log" 2>&1 \
        || { tail -30 "$work/install2.log"; fail "the second install.sh run failed"; }
    grep -q "^2 steps changed this system" "$work/install2.log" \
        || { cat "$work/install2.log"; fail "a second run changed more than the two pip updates"; }
    say "ok: a second run changes only the pip updates ($(elapsed))"; passed=$((passed + 1))

    # c. The app on mock pins, to its first frame (READY=1), then a clean stop.
    cat > "$merged/tmp/run.toml" <<'EOF'
[operator]
type = "png"
[state]
dir = "/tmp/corbeille-state"
EOF
    "${in[@]}" GPIOZERO_PIN_FACTORY=mock /opt/corbeille/venv/bin/python - <<'EOF' || fail "corbeille run did not reach its first frame"
import os, signal, socket, subprocess, sys, time
path = "/tmp/notify.sock"
sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind(path)
sock.settimeout(600)                      # Python under emulation is about 20x slower
start = time.monotonic()
app = subprocess.Popen(["/opt/corbeille/venv/bin/corbeille", "--config", "/tmp/run.toml", "run"],
                       env=dict(os.environ, NOTIFY_SOCKET=path))
message = b""
while b"READY=1" not in message:
    message = sock.recv(4096)
print(f"READY=1 after {time.monotonic() - start:.1f} s")
assert os.path.exists("/tmp/corbeille-state/screens/operator-latest.png"), "no frame written"
app.send_signal(signal.SIGTERM)
assert app.wait(timeout=120) == 0, app.returncode
EOF
    say "ok: corbeille run on mock pins reached READY=1 with its first frame, stopped cleanly ($(elapsed))"
    passed=$((passed + 1))

    # d. The web view on apt's Starlette and uvicorn, beside the box: the public page and
    # its event stream answer.
    cat > "$merged/tmp/web.toml" <<'EOF'
[operator]
type = "png"
[state]
dir = "/tmp/corbeille-web-state"
[web]
enabled = true
host = "127.0.0.1"
port = 8080
EOF
    "${in[@]}" GPIOZERO_PIN_FACTORY=mock /opt/corbeille/venv/bin/python - <<'EOF' || fail "corbeille web did not serve the table"
import os, signal, subprocess, time, urllib.request
env = dict(os.environ, CORBEILLE_RUN="/tmp/corbeille-run")
box = subprocess.Popen(["/opt/corbeille/venv/bin/corbeille", "--config", "/tmp/web.toml", "run"], env=env)
web = subprocess.Popen(["/opt/corbeille/venv/bin/corbeille", "--config", "/tmp/web.toml", "web"], env=env)
try:
    deadline = time.monotonic() + 600       # emulated: about 20x slower
    while True:
        try:
            page = urllib.request.urlopen("http://127.0.0.1:8080/", timeout=30).read().decode()
            if "/static/web.js" in page:
                break
        except OSError:
            pass
        assert time.monotonic() < deadline, "no page"
        time.sleep(2)
    stream = urllib.request.urlopen("http://127.0.0.1:8080/events", timeout=60)
    assert stream.headers["Content-Type"].startswith("text/event-stream"), stream.headers
    assert stream.readline().startswith(b"retry:")
    print("corbeille web answered")
finally:
    for process in (web, box):
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=120)
EOF
    say "ok: corbeille web on apt's Starlette and uvicorn served the page and its event stream ($(elapsed))"
    passed=$((passed + 1))
    say "all $passed checks passed in $(elapsed)"
}

case ${1:-} in
    --inside) inside ;;
    "") prepare
        # A private mount namespace: every mount below disappears with it, even on failure.
        exec unshare --mount --propagation private bash "${BASH_SOURCE[0]}" --inside ;;
    *) echo "usage: $0" >&2; exit 2 ;;
esac
