"""What the benchmark scripts share: a free loopback port, waiting for a condition, a Mosquitto on loopback."""
import os
import shutil
import socket
import subprocess
import sys
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what, condition, timeout, work):
    """Polls `condition` every 20 ms; after `timeout` seconds, exits saying what was awaited and where the files are."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if condition():
            return
        time.sleep(0.02)
    sys.exit(f"{os.path.basename(sys.argv[0])}: timed out waiting for {what} (files in {work})")


def mosquitto(work, name, start, extra=""):
    """Starts `mosquitto` (through `start`, which keeps the process to stop it) on a free loopback port, anonymous,
    persistence off, its log in WORK/NAME.log, with `extra` configuration lines; returns the port once it accepts."""
    port = free_port()
    config = os.path.join(work, name + ".conf")
    with open(config, "w") as f:
        f.write(("user root\n" if os.getuid() == 0 else "")
                + f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
                + f"log_dest file {work}/{name}.log\n" + extra)
    start(["mosquitto", "-c", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def accepts():
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            return False
    wait_for("mosquitto", accepts, 10, work)
    return port


def run(main, processes, work):
    """Runs `main`, then stops every process started (the last first) and removes WORK, unless CHEST_BENCH_KEEP
    asks to keep it for a look."""
    try:
        main()
    finally:
        for process in reversed(processes):
            process.terminate()
            process.wait()
        if os.environ.get("CHEST_BENCH_KEEP"):
            print("kept", work)
        else:
            shutil.rmtree(work, ignore_errors=True)
