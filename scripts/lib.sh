# Shell helpers the scripts share (sourced, not run): scripts/demo.sh, map-picture.sh, board-screenshot.sh and the
# benchmarks.

# A free TCP port on loopback.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# A private chest under directory $1 for a chestd reading gpsd on loopback port $2: its directory, its socket in a
# 0700 run directory, its own config directory (reader/) and UTC unless TZ is set.
private_chest() {
    export CHEST_DIR="$1/chest" CHEST_SOCKET="$1/run/chestd.sock" CHEST_GPSD="127.0.0.1:$2"
    export XDG_CONFIG_HOME="$1/reader" TZ="${TZ:-UTC}"
    mkdir -p "$1/run" && chmod 700 "$1/run"
}

# Stops the processes whose pids are given (empty ones skipped) and waits for each.
end_processes() { for pid in "$@"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done; }
