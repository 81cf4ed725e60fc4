# Shell helpers the scripts share (sourced, not run): scripts/demo.sh, map-picture.sh, board-screenshot.sh and the
# benchmarks.

# A free TCP port on loopback, drawn below the kernel's ephemeral range (32768 and up): a port the kernel chose and
# this released at once may be handed to the next outgoing connection of another program before gpsd binds it.
free_port() {
    python3 -c '
import random, socket
for _ in range(200):
    port, s = random.randrange(20000, 32768), socket.socket()
    try:
        s.bind(("127.0.0.1", port)); print(port); break
    except OSError:
        pass
    finally:
        s.close()'
}

# `on_exit CLEANUP [SIGNALLED]`: runs the function CLEANUP when the script exits, and ends the script on SIGINT or
# SIGTERM (130, 143) after running SIGNALLED, if given. Only the script's own shell runs them: bash gives a background
# job's shell the script's traps until the job starts its program, and a signal that reaches a job just started (one
# stopped at once) ran the whole cleanup there, stopping chestd and removing the work directory under the demo,
# which carried on and found chestd gone (docs/ARCHITECTURE.md "Tests"). A job's shell just exits.
on_exit() {
    trap '[ "$BASHPID" != "$$" ] || '"$1" EXIT
    trap '[ "$BASHPID" != "$$" ] || '"${2:-:}"'; exit 130' INT
    trap '[ "$BASHPID" != "$$" ] || '"${2:-:}"'; exit 143' TERM
}

# A private chest under directory $1 for a chestd reading gpsd on loopback port $2: its directory, its socket in a
# 0700 run directory, its own config directory (reader/) and UTC unless TZ is set.
private_chest() {
    export CHEST_DIR="$1/chest" CHEST_SOCKET="$1/run/chestd.sock" CHEST_GPSD="127.0.0.1:$2"
    export XDG_CONFIG_HOME="$1/reader" TZ="${TZ:-UTC}"
    mkdir -p "$1/run" && chmod 700 "$1/run"
}

# Stops the processes whose pids are given (empty ones skipped) and waits for each. SIGCONT after the SIGTERM: a
# process held with SIGSTOP (gpsfake, in the demo) acts on the SIGTERM only once it runs again.
end_processes() {
    for pid in "$@"; do
        [ -n "$pid" ] && kill "$pid" 2>/dev/null && { kill -CONT "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; } || true
    done
}

# Whether the gpsd on loopback port $1 lists a device within 15 s, asked with `?DEVICES;` every 0.1 s; no as soon as
# process $2 (its gpsfake) has ended. gpsfake gives up when it reaches gpsd before gpsd listens, and gpsd may miss the
# device gpsfake adds (docs/DESIGN.md "gpsfake pitfalls").
gpsd_lists_a_device() {
    python3 - "$1" "$2" <<'PYTHON'
import json, socket, sys, time
port, pid = int(sys.argv[1]), sys.argv[2]
def running():
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
deadline = time.monotonic() + 15
while time.monotonic() < deadline and running():
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as connection:
            connection.sendall(b"?DEVICES;\n")
            reply = b""
            while b'"class":"DEVICES"' not in reply or not reply.endswith(b"\n"):
                chunk = connection.recv(4096)
                if not chunk:
                    break
                reply += chunk
            for line in reply.decode(errors="replace").splitlines():
                if '"class":"DEVICES"' in line and json.loads(line).get("devices"):
                    sys.exit(0)
    except (OSError, ValueError):  # not listening yet, or a line cut short: ask again
        pass
    time.sleep(0.1)
sys.exit(1)
PYTHON
}

# Whether directory $1 lacks the benchmarks' 10,000 composed messages (m0.locked …).
bench_messages_missing() { [ "$(ls "$1" | grep -c '^m[0-9]*\.locked$')" -lt 10000 ]; }

# The benchmarks' 10,000 messages as `chest compose --quest` writes them from scripts/bench-quest.py, into directory
# $3, with program directory $1 and scratch directory $2. --seal-cost interactive: the files are compose's, but for
# the Argon2id parameters each sealed slot names, which chestd keeps alike at any cost; the default cost would take
# compose hours for 1,000 sealed pages.
compose_bench_messages() {
    python3 scripts/bench-quest.py 10000 > "$2/bench.quest"
    XDG_CONFIG_HOME="$2/organiser" "$1/chest" compose --quest "$2/bench.quest" -o "$3" \
        --seal-cost interactive --yes > /dev/null 2> "$2/compose.log"
}
