# Sourced by deploy/container-test.sh and deploy/addon-test.sh, which set SUDO and WORK first: installs
# what the engine needs and sets ENGINE (the command, through sudo when not root), BUILD_FLAGS and engine().
apt_install() {
    local missing=()
    for package in "$@"; do
        dpkg -s "$package" 2>/dev/null | grep -q '^Status: install ok installed' || missing+=("$package")
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    echo "==> Installing ${missing[*]}"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

if [ -z "${ENGINE:-}" ]; then
    if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then ENGINE=docker; else ENGINE=podman; fi
fi
apt_install mosquitto mosquitto-clients libmosquitto-dev libdbus-1-dev libssl-dev libyaml-dev pkg-config openssl
BUILD_FLAGS=()
if [ "$ENGINE" = podman ]; then
    # catatonit is podman's --init (compose's `init: true`); Debian's podman does not pull it in.
    apt_install podman runc mmdebstrap catatonit
    # A private containers.conf: runc, and limits no higher than this process's own.
    nofile=$(ulimit -Hn)
    [ "$nofile" = unlimited ] && nofile=1048576
    nproc=$(ulimit -Hu)
    { [ "$nproc" = unlimited ] || [ "$nproc" -gt 4096 ]; } && nproc=4096
    export CONTAINERS_CONF="$WORK/containers.conf"
    printf '[containers]\ndefault_ulimits = ["nofile=%s:%s", "nproc=%s:%s"]\n[engine]\nruntime = "runc"\n' \
        "$nofile" "$nofile" "$nproc" "$nproc" >"$CONTAINERS_CONF"
    BUILD_FLAGS+=(--format docker)
    # Through `env`, as sudo would drop CONTAINERS_CONF from the environment.
    ENGINE="$SUDO env CONTAINERS_CONF=$CONTAINERS_CONF podman"
else
    apt_install mmdebstrap
    ENGINE="$SUDO docker"
fi
echo "==> Engine: $ENGINE"
# podman runs health checks from systemd timers. Without systemd it says so at every run, stop and rm, and the
# checks here run them with `healthcheck run` instead (see health below); that noise is left out.
engine() {
    if [[ "$ENGINE" == *podman ]] && [ ! -S /run/systemd/private ]; then
        $ENGINE "$@" 2> >(grep -v 'unable to get systemd connection' >&2)
    else
        $ENGINE "$@"
    fi
}
