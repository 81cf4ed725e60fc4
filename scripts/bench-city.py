#!/usr/bin/env python3
"""A hunt for a city on the real wire (docs/BENCHMARKS.md "A city"); scripts/bench-city.sh builds and runs this.

TEAMS teams made with `chest hunt team add --count`, three messages composed for the hunt (`compose --hunt`), a test
CA made with openssl, a main Mosquitto running examples/mosquitto/hunt.conf and hunt.acl (adapted only in ports and
paths) with a password file made by mosquitto_passwd and the descriptor limit of the systemd drop-in, and EDGES edge
brokers bridged to it by bridge.conf. `chest-bench city` connects every team as its own client over TLS and sends
statuses, signed receipts with real proofs of the real pages and positions every 30 s; the organiser's `chest board
--json --http` credits them, one browser-like client follows `/events`, and SLOW connections (default 5,000) trickle
a header byte every 5 s to the web board while an honest `/board.json` request is timed every 2 s.

Latency: from the moment `chest-bench city` publishes a receipt (its log) to the moment this script reads the
board's `unlock` line for it on `chest board --json`'s standard output (one clock: the same machine).

Usage: scripts/bench-city.py TEAMS [EDGES]   (CHEST_CITY_SLOW=N slow connections, CHEST_CITY_PAGES=N messages,
CHEST_CITY_SPREAD=S seconds over which receipts are sent, CHEST_CITY_PERSISTENCE=old for the former autosave
settings, CHEST_CITY_FLOOD=1 adds one team that floods (statuses and junk receipts as fast as the broker takes them),
CHEST_CITY_FLOOD=not-an-id one that floods its signed statuses on receipt topics whose last level is no id (issue 61),
CHEST_CITY_FLOOD_COUNT=N messages (default 600,000 for not-an-id, unbounded for 1) at CHEST_CITY_FLOOD_RATE=R a second
(default 20,000 for not-an-id, as fast as the broker acknowledges for 1), CHEST_BENCH_KEEP=1 keeps the temporary
directory, CHEST_CITY_BOARD=PATH runs the board with another `chest` program, an older build's, for a figure before
a change)

With a flood, the board's resident memory is sampled every 0.5 s (VmRSS): its peak during the flood and after it, and
the honest receipts' latency is split by whether they were sent during the flood or after it.

The latency is also split at the board's `receivedAt` (its clock when its loop took the receipt in): from the
publish to the board's loop (the client, the broker, the board's MQTT thread), and from there to this script's read
(the board's checks and its output, this script's reading).
"""
import http.client
import json
import multiprocessing
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from datetime import datetime  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples", "mosquitto")
BIN = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                     capture_output=True, text=True).stdout.strip()
WORK = tempfile.mkdtemp(prefix="chest-city-bench-")
PROCESSES = []
TOKEN = "city-bench-token-0123456789"


def say(text):
    print(text, flush=True)


def wait_for(what, condition, timeout):
    benchlib.wait_for(what, condition, timeout, WORK)


def start(arguments, **options):
    process = subprocess.Popen(arguments, **options)
    PROCESSES.append(process)
    return process


def run(arguments, **options):
    return subprocess.run(arguments, check=True, capture_output=True, text=True, **options).stdout


def load():
    return "/".join(open("/proc/loadavg").read().split()[:3])


def status_kb(pid, field):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def threads_cpu(pid):
    """Each thread's name → its CPU seconds so far (utime + stime of /proc/PID/task/*/stat)."""
    seconds = {}
    tick = os.sysconf("SC_CLK_TCK")
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return seconds
    for task in tasks:
        try:
            text = open(f"/proc/{pid}/task/{task}/stat").read()
        except OSError:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text[text.rindex(")") + 2:].split()
        seconds[name] = seconds.get(name, 0) + (int(fields[11]) + int(fields[12])) / tick
    return seconds


def certificate_authority():
    """A CA and a certificate for 127.0.0.1 signed by it, as Tests/ChestTestSupport/TestCertificateAuthority does."""
    path = lambda name: os.path.join(WORK, name)
    with open(path("server.ext"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n")
    curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run(["openssl", "req", "-x509", *curve, "-keyout", path("ca.key"), "-out", path("ca.crt"), "-days", "2",
         "-subj", "/CN=chest city bench CA"])
    run(["openssl", "req", *curve, "-keyout", path("server.key"), "-out", path("server.csr"), "-subj", "/CN=localhost"])
    run(["openssl", "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.crt"), "-CAkey", path("ca.key"),
         "-CAcreateserial", "-out", path("server.crt"), "-days", "2", "-extfile", path("server.ext")])
    return path("ca.crt"), path("server.crt"), path("server.key")


def adapt(name, values):
    """The example file `name` with the value of each option in `values` replaced; each must occur exactly once."""
    seen = {}
    lines = []
    for line in open(os.path.join(EXAMPLES, name)).read().split("\n"):
        key = line.split(" ")[0]
        if not line.startswith("#") and key in values:
            seen[key] = seen.get(key, 0) + 1
            line = f"{key} {values[key]}"
        lines.append(line)
    for key in values:
        if seen.get(key) != 1:
            sys.exit(f"bench-city: {name}: {key} occurs {seen.get(key, 0)} times")
    return "\n".join(lines) + "\n"


def descriptor_limit():
    """LimitNOFILE of the shipped systemd drop-in: what the broker runs with."""
    text = open(os.path.join(EXAMPLES, "mosquitto.service.d", "chest-hunt.conf")).read()
    return int(re.search(r"^LimitNOFILE=(\d+)", text, re.M).group(1))


def broker(name, certificates, passwords, acl, bridge_to=None):
    """A Mosquitto running hunt.conf (and bridge.conf when `bridge_to` is (port, client ID)), ports and paths moved."""
    ca, certificate, key = certificates
    port = benchlib.free_port()
    values = {"listener": f"{port} 127.0.0.1", "cafile": ca, "certfile": certificate, "keyfile": key,
              "password_file": passwords, "acl_file": acl}
    if os.environ.get("CHEST_CITY_PERSISTENCE") == "old":
        values.update({"autosave_on_changes": "true", "autosave_interval": "1"})
    configuration = adapt("hunt.conf", values)
    if bridge_to:
        configuration += adapt("bridge.conf", {"address": f"127.0.0.1:{bridge_to[0]}", "bridge_cafile": ca,
                                               "remote_password": "bridge-password", "remote_clientid": bridge_to[1]})
    # What Debian's /etc/mosquitto/mosquitto.conf sets and hunt.conf leaves to it.
    directory = os.path.join(WORK, name)
    os.makedirs(directory)
    debian = ("user root\n" if os.getuid() == 0 else "") + f"persistence_location {directory}/\n" \
        + f"log_dest file {WORK}/{name}.log\n"
    path = os.path.join(WORK, name + ".conf")
    with open(path, "w") as f:
        f.write(debian + configuration)
    # The drop-in's limit, or this machine's hard limit when that is lower (a container may not raise it).
    limit = min(descriptor_limit(), resource.getrlimit(resource.RLIMIT_NOFILE)[1])
    process = start(["prlimit", f"--nofile={limit}:{limit}", "mosquitto", "-c", path],
                    stdout=subprocess.DEVNULL, stderr=open(os.path.join(WORK, name + ".err"), "w"))

    def accepts():
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            return False
    wait_for(f"mosquitto {name}", accepts, 15)
    return {"name": name, "port": port, "process": process, "directory": directory,
            "log": os.path.join(WORK, name + ".log")}


def saves(node):
    try:
        return open(node["log"]).read().count("Saving in-memory database")
    except OSError:
        return 0


class SlowClients:
    """`count` connections to the web board that never finish their request: a header byte every 5 s (enough to
    outlast any idle timeout), reopened when the board closes them; from 127.0.0.2 on, 50 per address. A process of
    its own: 5,000 sends in a Python loop would otherwise hold this script's interpreter lock while the threads that
    time the board wait for it."""

    def __init__(self, port, count):
        self.port, self.count = port, count
        self._open = multiprocessing.Value("i", 0)
        self._reopened = multiprocessing.Value("i", 0)
        self._stopping = multiprocessing.Event()
        self._process = multiprocessing.Process(target=self._run, daemon=True)

    @property
    def open(self):
        return self._open.value

    @property
    def reopened(self):
        return self._reopened.value

    def start(self):
        self._process.start()

    def _connect(self, index):
        s = socket.socket()
        s.setblocking(True)
        s.settimeout(2)
        s.bind((f"127.0.{2 + index // 50 // 250}.{2 + (index // 50) % 250}", 0))
        try:
            s.connect(("127.0.0.1", self.port))
            s.send(b"GET /board.json HTTP/1.1\r\nHost: x\r\n")
        except OSError:
            s.close()
            return None
        return s

    def _run(self):
        sockets = [None] * self.count
        while not self._stopping.is_set():
            alive = 0
            for index in range(self.count):
                s = sockets[index]
                if s is not None:
                    try:
                        s.send(b"X")
                    except OSError:
                        s.close()
                        s = None
                        self._reopened.value += 1
                if s is None:
                    s = self._connect(index)
                sockets[index] = s
                alive += s is not None
            self._open.value = alive
            self._stopping.wait(5)
        for s in sockets:
            if s is not None:
                s.close()

    def close(self):
        self._stopping.set()
        self._process.join(30)


class Honest(threading.Thread):
    """An honest screen: `/board.json` with the token every 2 s; its answers' times, and its failures. Each request
    is curl's, timed by curl (`time_total`, connection to last byte), so this script's own threads cannot lengthen
    it."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port = port
        self.times, self.failures = [], []
        self.stopping = False

    def run(self):
        url = f"http://127.0.0.1:{self.port}/board.json?token={TOKEN}"
        while not self.stopping:
            try:
                result = subprocess.run(["curl", "-s", "-o", "/dev/null", "--max-time", "5", "-w",
                                         "%{http_code} %{time_total}", url], capture_output=True, text=True)
            except OSError as error:
                # Not the board's failure, but counted as one rather than ending this thread unseen.
                self.failures.append(f"curl not run: {error}")
                time.sleep(2)
                continue
            code, _, seconds = result.stdout.partition(" ")
            if result.returncode == 0 and code == "200":
                self.times.append(float(seconds) * 1000)
            else:
                self.failures.append(f"HTTP {code}" if result.returncode == 0 else f"curl exit {result.returncode}")
            time.sleep(2)


class Stream(threading.Thread):
    """A browser's `/events`: the board events it receives, and when."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port = port
        self.unlocks, self.sections = [], 0
        self.error = None

    def run(self):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            connection.request("GET", f"/events?token={TOKEN}")
            response = connection.getresponse()
            if response.status != 200:
                self.error = f"HTTP {response.status}"
                return
            event = None
            while True:
                line = response.readline()
                if not line:
                    self.error = "the stream ended"
                    return
                line = line.decode(errors="replace").rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    if event == "board" and '"event":"unlock"' in line:
                        self.unlocks.append(time.time())
                    elif event == "sections":
                        self.sections += 1
        except OSError as error:
            self.error = str(error)


def percentile(values, fraction):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * fraction))] if values else float("nan")


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: scripts/bench-city.py TEAMS [EDGES]")
    teams, edges = int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 0
    slow = int(os.environ.get("CHEST_CITY_SLOW", "5000"))
    pages = int(os.environ.get("CHEST_CITY_PAGES", "3"))
    spread = os.environ.get("CHEST_CITY_SPREAD", "60")
    flood_mode = os.environ.get("CHEST_CITY_FLOOD", "")
    flood = flood_mode in ("1", "not-an-id")
    flood_count = os.environ.get("CHEST_CITY_FLOOD_COUNT", "600000" if flood_mode == "not-an-id" else "")
    flood_rate = os.environ.get("CHEST_CITY_FLOOD_RATE", "20000" if flood_mode == "not-an-id" else "")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < descriptor_limit():
        say(f"   brokers run with {hard} descriptors, this machine's hard limit, not the drop-in's {descriptor_limit()}")
    persistence = "former (autosave_on_changes true, autosave_interval 1)" \
        if os.environ.get("CHEST_CITY_PERSISTENCE") == "old" else "as shipped"
    flood_words = {"1": " and one that floods", "not-an-id": " and one that floods receipt/<not-an-id>"}
    say(f"== city: {teams} teams{flood_words.get(flood_mode, '')}, {edges} edges, {pages} pages each,"
        f" persistence {persistence}; load {load()}")
    organiser = dict(os.environ, HOME=os.path.join(WORK, "organiser"), TZ="UTC",
                     XDG_CONFIG_HOME=os.path.join(WORK, "organiser", "config"),
                     CHEST_DIR=os.path.join(WORK, "organiser", "chest"),
                     CHEST_SOCKET=os.path.join(WORK, "organiser", "chestd.sock"), CHEST_GPSD="127.0.0.1:9")
    os.makedirs(organiser["CHEST_DIR"])
    chest = lambda *arguments: run([os.path.join(BIN, "chest"), *arguments], env=organiser)
    certificates = certificate_authority()
    main_port = benchlib.free_port()
    hunt = os.path.join(WORK, "city.hunt")
    teams_dir = os.path.join(WORK, "teams")
    os.makedirs(teams_dir)
    hunt = os.path.join(teams_dir, "city.hunt")
    chest("hunt", "create", "City hunt", "--broker", f"mqtts://127.0.0.1:{main_port}", "--ca", certificates[0], "-o", hunt)
    began = time.time()
    added = chest("hunt", "team", "add", "team", "--count", str(teams + flood), "--hunt", hunt)
    say(f"   chest hunt team add --count {teams}: {time.time() - began:.1f} s")
    for index in range(pages):
        chest("compose", "-o", os.path.join(WORK, f"m{index}.locked"), "--title", f"Clue {index + 1}",
              "--page", f"page {index + 1}", "--lock", "time=2020-01-01T00:00:00Z", "--hunt", hunt)
    with open(hunt) as f:
        organiser_password = json.load(f)["organiserPassword"]
    passwords = os.path.join(WORK, "hunt.passwd")
    with open(passwords, "w") as f:
        for line in added.splitlines():
            if line.startswith("broker: mosquitto_passwd"):
                _, _, _, _, user, password = line.split()
                f.write(f"{user}:{password}\n")
        f.write(f"organiser:{organiser_password}\nbridge:bridge-password\n")
    began = time.time()
    run(["mosquitto_passwd", "-U", passwords])
    say(f"   mosquitto_passwd -U for {teams + 2} users: {time.time() - began:.1f} s")
    acl = os.path.join(WORK, "hunt.acl")
    shutil.copyfile(os.path.join(EXAMPLES, "hunt.acl"), acl)

    # The main broker must listen on the port in the hunt file.
    original_free_port = benchlib.free_port
    benchlib.free_port = lambda: main_port
    main_broker = broker("main", certificates, passwords, acl)
    benchlib.free_port = original_free_port
    nodes = [main_broker]
    for index in range(edges):
        nodes.append(broker(f"edge{index + 1}", certificates, passwords, acl, (main_port, f"hunt-edge-{index + 1}")))
    for index in range(edges):
        wait_for(f"hunt-edge-{index + 1} connected to the main broker",
                 lambda: f"as hunt-edge-{index + 1} " in open(main_broker["log"]).read(), 30)
    team_brokers = nodes[1:] if edges else nodes

    web_port = benchlib.free_port()
    board = start([os.environ.get("CHEST_CITY_BOARD", os.path.join(BIN, "chest")), "board", hunt, "--json", "--http", f"127.0.0.1:{web_port}",
                   "--http-token", TOKEN], env=organiser, stdout=subprocess.PIPE,
                  stderr=open(os.path.join(WORK, "board.err"), "w"), text=True, bufsize=1)
    unlocks = {}
    received = {}
    lines = []
    refused = [0]

    def read_board():
        for line in board.stdout:
            now = time.time()
            if '"event":"unlock"' in line:
                entry = json.loads(line)
                key = (entry["team"], entry["message"], entry["page"])
                unlocks.setdefault(key, now)
                received.setdefault(key, datetime.fromisoformat(entry["receivedAt"].replace("Z", "+00:00")).timestamp())
            elif '"event":"refused"' in line:
                refused[0] += 1
            lines.append(len(line))
    threading.Thread(target=read_board, daemon=True).start()
    wait_for("the web board", lambda: "serving the board" in open(os.path.join(WORK, "board.err")).read(), 30)
    stream = Stream(web_port)
    stream.start()
    # The slow clients' process before the honest screen's thread: a process forked while that thread starts curl
    # keeps open the pipe subprocess waits on for curl's exec, so the thread can wait the whole run (the likely cause
    # of three runs with 0 answered and 0 failed).
    slow_clients = SlowClients(web_port, slow) if slow else None
    if slow_clients:
        slow_clients.start()
    honest = Honest(web_port)
    honest.start()
    if slow_clients:
        wait_for(f"{slow} slow connections", lambda: slow_clients.open >= slow * 0.95, 120)
        say(f"   {slow_clients.open} slow connections to the web board open; load {load()}")
    saves_before = [saves(node) for node in nodes]
    journal_before = os.path.getsize(hunt + ".board")

    # libmosquitto's loop uses select(2): at most about 300 clients a process (Sources/ChestBench/CityBench.swift).
    shards = max(1, -(-teams // 250))
    brokers = ",".join(f"127.0.0.1:{node['port']}" for node in team_brokers)
    began = time.time()
    clients = []
    go = os.path.join(WORK, "go")
    ready = []
    for shard in range(shards):
        log = os.path.join(WORK, f"sent-{shard}.log")
        open(log, "w").close()
        clients.append(start([os.path.join(BIN, "chest-bench"), "city", hunt, certificates[0], brokers,
                              "--spread", spread, "--log", log, "--shard", f"{shard}/{shards}", "--teams", str(teams), "--go", go,
                              "--connect-rate", str(max(10, 250 // shards))],
                             stdout=subprocess.PIPE, text=True, bufsize=1))

    def echo(process, shard):
        for line in process.stdout:
            if "city-teams: ready" in line:
                ready.append(shard)
            elif shard == 0 or "gave up" in line:
                say(f"   [{shard + 1}/{shards}] " + line.rstrip())
    echoes = [threading.Thread(target=echo, args=(process, shard), daemon=True) for shard, process in enumerate(clients)]
    for thread in echoes:
        thread.start()
    # The receipts start together, once every team is connected and the board has taken every first status in
    # (as a hunt's teams are connected before its start): before, each process started its receipts as soon as its
    # own teams were connected, behind the other processes' 5,000 first statuses at the board (docs/BENCHMARKS.md).
    wait_for("every team connected", lambda: len(ready) == shards or any(p.poll() is not None for p in clients), 900)
    connected = time.time()
    size, quiet_since = -1, time.time()
    while time.time() - quiet_since < 2 and time.time() - connected < 120:
        now_size = os.path.getsize(hunt + ".board")
        if now_size != size:
            size, quiet_since = now_size, time.time()
        time.sleep(0.1)
    say(f"   every team connected in {connected - began:.1f} s; the board took the first statuses in"
        f" {quiet_since - connected:.1f} s more; receipts start; load {load()}")
    flooded = []
    flood_times = {}
    flood_cpu = {}
    rss_samples = []
    if flood:
        arguments = ["--flood", str(teams), "--duration", "900"]
        if flood_mode == "not-an-id":
            arguments += ["--on", "not-an-id"]
        if flood_count:
            arguments += ["--count", flood_count]
        if flood_rate:
            arguments += ["--rate", flood_rate]
        flooder = start([os.path.join(BIN, "chest-bench"), "city", hunt, certificates[0], brokers, *arguments],
                        stdout=subprocess.PIPE, text=True, bufsize=1)

        def follow_flood():
            for line in flooder.stdout:
                flooded.append(line.strip())
                for event in ("started", "done"):
                    if line.startswith(f"city-flood: {event}"):
                        flood_times.setdefault(event, time.time())
                        flood_cpu.setdefault(event, {"board": threads_cpu(board.pid),
                                                     "broker": threads_cpu(main_broker["process"].pid),
                                                     "flooder": threads_cpu(flooder.pid)})
        threading.Thread(target=follow_flood, daemon=True).start()
        # The flood starts with the receipts: its own connection and signing first.
        wait_for("the flooding team ready", lambda: any(line == "city-flood: ready" for line in flooded), 300)

        def sample_rss():
            while board.poll() is None:
                rss_samples.append((time.time(), status_kb(board.pid, "VmRSS") / 1024))
                time.sleep(0.5)
        threading.Thread(target=sample_rss, daemon=True).start()
    rss_before = status_kb(board.pid, "VmRSS") / 1024
    open(go, "w").close()
    failed = [shard for shard, process in enumerate(clients) if process.wait() != 0]
    for thread in echoes:
        thread.join()
    if failed:
        sys.exit(f"bench-city: chest-bench city failed in shards {failed} (files in {WORK})")
    say(f"   {shards} processes of chest-bench city, {teams} teams, done in {time.time() - began:.1f} s; load {load()}")
    sent = {}
    for shard in range(shards):
        for line in open(os.path.join(WORK, f"sent-{shard}.log")):
            _, team, message, page, at = line.split()
            sent[(team, message, int(page))] = float(at)
    last_count, last_change = -1, time.time()
    while len(unlocks) < len(sent) and time.time() - last_change < 60:
        if len(unlocks) != last_count:
            last_count, last_change = len(unlocks), time.time()
        time.sleep(0.1)
    finished = time.time()
    time.sleep(2)
    credited = [key for key in sent if key in unlocks]
    latencies = [(unlocks[key] - sent[key]) * 1000 for key in credited]
    to_board = [(received[key] - sent[key]) * 1000 for key in credited]
    from_board = [(unlocks[key] - received[key]) * 1000 for key in credited]
    board_rss = status_kb(board.pid, "VmHWM") / 1024
    broker_rss = [status_kb(node["process"].pid, "VmHWM") / 1024 for node in nodes]
    saves_during = [saves(node) - before for node, before in zip(nodes, saves_before)]
    database = [os.path.getsize(os.path.join(node["directory"], "mosquitto.db"))
                if os.path.exists(os.path.join(node["directory"], "mosquitto.db")) else 0 for node in nodes]
    say(f"   credited {len(credited)} of {len(sent)} in {finished - began:.1f} s from the first connection; load {load()}")
    for node, rss, count, size in zip(nodes, broker_rss, saves_during, database):
        say(f"   broker {node['name']}: peak RSS {rss:.1f} MB; database saves during the run {count}"
            f" (its file now {size / 1e6:.2f} MB)")
    journal = os.path.getsize(hunt + ".board")
    say(f"   board: peak RSS {board_rss:.1f} MB, now {status_kb(board.pid, 'VmRSS') / 1024:.1f} MB; journal"
        f" {journal / 1e6:.1f} MB ({(journal - journal_before) / 1e6:.1f} MB during the run)")
    say(f"   latency split at the board's receivedAt: publish to the board's loop p50 {percentile(to_board, 0.5):.0f} ms,"
        f" p95 {percentile(to_board, 0.95):.0f} ms; the board's loop to this script p50 {percentile(from_board, 0.5):.0f} ms,"
        f" p95 {percentile(from_board, 0.95):.0f} ms")
    if flood:
        say(f"   the flooding team: {flooded[-1] if flooded else 'no report'}; the board printed {refused[0]} refusals,"
            f" {len(lines)} lines in all")
        began_flood, ended_flood = flood_times.get("started"), flood_times.get("done")
        if began_flood and ended_flood:
            during = [(unlocks[key] - sent[key]) * 1000 for key in credited if began_flood <= sent[key] <= ended_flood]
            after = [(unlocks[key] - sent[key]) * 1000 for key in credited if sent[key] > ended_flood]
            say(f"   the flood from {began_flood - began:.1f} s to {ended_flood - began:.1f} s; receipts sent during it:"
                f" {len(during)}, p50 {percentile(during, 0.5):.0f} ms, p95 {percentile(during, 0.95):.0f} ms,"
                f" max {max(during, default=0):.0f} ms; after it: {len(after)}, p95 {percentile(after, 0.95):.0f} ms")
            peak_during = max((m for t, m in rss_samples if began_flood <= t <= ended_flood), default=0)
            peak_after = max((m for t, m in rss_samples if t > ended_flood), default=0)
            say(f"   board RSS (VmRSS every 0.5 s): {rss_before:.1f} MB before the flood, peak {peak_during:.1f} MB during"
                f" it, peak {peak_after:.1f} MB after it, {status_kb(board.pid, 'VmRSS') / 1024:.1f} MB at the end")
            if "started" in flood_cpu and "done" in flood_cpu:
                span = ended_flood - began_flood
                for process in ("board", "broker", "flooder"):
                    before, after = flood_cpu["started"][process], flood_cpu["done"][process]
                    used = {name: (after[name] - before.get(name, 0)) / span for name in after}
                    busiest = sorted(used.items(), key=lambda item: -item[1])[:3]
                    say(f"   {process} during the flood: {sum(used.values()):.2f} of a core ("
                        + ", ".join(f"{name} {share:.2f}" for name, share in busiest) + ")")
        else:
            say(f"   the flood did not end within the run: {flood_times}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", web_port, timeout=30)
            connection.request("GET", f"/board.json?token={TOKEN}")
            ignored = json.loads(connection.getresponse().read()).get("ignored", {})
            say(f"   the board counted, refused: {ignored}")
        except (OSError, ValueError) as error:
            say(f"   the board's counts: not read ({error})")
    stream_live = stream.error is None and stream.unlocks and stream.unlocks[-1] >= max(unlocks.values(), default=0) - 5
    say(f"   web stream: {len(stream.unlocks)} unlock events, {stream.sections} section updates,"
        f" {'live' if stream_live else 'NOT live: ' + str(stream.error)}")
    if slow_clients:
        say(f"   slow connections: {slow_clients.open} open at the end, {slow_clients.reopened} closed by the board"
            f" and reopened")
    if not honest.times and not honest.failures:
        # Say where the screen's thread is, should it ever wait again.
        frame = sys._current_frames().get(honest.ident)
        honest.failures.append("no request answered or failed")
        say(f"   honest screen: its thread {'alive' if honest.is_alive() else 'ended'}; "
            + ("".join(traceback.format_stack(frame)[-4:]) if frame else "no frame"))
    say(f"   honest /board.json every 2 s: {len(honest.times)} answered, p50 {percentile(honest.times, 0.5):.0f} ms,"
        f" p95 {percentile(honest.times, 0.95):.0f} ms, max {max(honest.times, default=0):.0f} ms;"
        f" {len(honest.failures)} failed {sorted(set(honest.failures))[:3]}")
    honest.stopping = True
    if slow_clients:
        slow_clients.close()
    ok = len(credited) == len(sent) and stream_live and not honest.failures
    say(f"city: teams {teams}, edges {edges}, receipts sent {len(sent)}, credited {len(credited)},"
        f" p50 {percentile(latencies, 0.5):.0f} ms, p95 {percentile(latencies, 0.95):.0f} ms,"
        f" board RSS {board_rss:.0f} MB, broker RSS {broker_rss[0]:.0f} MB")
    return 0 if ok else 1


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    code = 1
    try:
        code = main()
    finally:
        for process in reversed(PROCESSES):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()
        if os.environ.get("CHEST_BENCH_KEEP"):
            print(f"bench-city: kept {WORK}", file=sys.stderr)
        else:
            shutil.rmtree(WORK, ignore_errors=True)
    sys.exit(code)
