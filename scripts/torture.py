#!/usr/bin/env python3
"""The torture suite (docs/RELIABILITY.md): the release chestd through kill -9 cycles, a full file system,
descriptor exhaustion, an inotify storm, a hostile corpus and a crash at each named step (CHEST_CRASH_AT).
Prints a table and exits 1 on any loss, duplicate or file left staged. Run with `make torture` (as root for the
tmpfs and prlimit phases; they are skipped otherwise)."""
import base64, ctypes, json, os, random, secrets, shutil, signal, socket, subprocess, sys, tempfile, time

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/release"
# chestd is a link to chest, the one program, which SwiftPM does not make.
subprocess.run(["sh", os.path.join(os.path.dirname(os.path.abspath(__file__)), "link-programs.sh"), BIN], check=True)
SCALE = float(os.environ.get("TORTURE_SCALE", "1"))
sodium = ctypes.CDLL("libsodium.so.23")
assert sodium.sodium_init() >= 0
PK, SK = ctypes.create_string_buffer(32), ctypes.create_string_buffer(64)
sodium.crypto_sign_keypair(PK, SK)
KEY = base64.b64encode(PK.raw).decode()


def message(title, locks=None, text="page"):
    """A sealed message file: the signed bytes are the canonical compact JSON, keys sorted (docs/FORMAT.md)."""
    wire = {"format": "chest-message", "version": 1, "id": secrets.token_hex(16), "title": title, "from": "Torture",
            "created": "2026-01-01T00:00:00Z", "publicKey": KEY,
            "pages": [{"text": text, "a": locks if locks is not None else [{"type": "time", "at": "2099-01-01T00:00:00Z"}], "b": []}]}
    signed = json.dumps(wire, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    signature = ctypes.create_string_buffer(64)
    sodium.crypto_sign_detached(signature, None, signed, ctypes.c_ulonglong(len(signed)), SK)
    wire["signature"] = base64.b64encode(signature.raw).decode()
    return wire["id"], json.dumps(wire, sort_keys=True, indent=1).encode()


class World:
    def __init__(self, chest=None):
        self.root = tempfile.mkdtemp(prefix="chest-torture-")
        self.chest = chest or self.root + "/chest"
        os.makedirs(self.chest, exist_ok=True)
        self.env = dict(os.environ, HOME=self.root, XDG_CONFIG_HOME=self.root + "/config", CHEST_DIR=self.chest,
                        CHEST_SOCKET=self.root + "/run/chestd.sock", CHEST_GPSD="127.0.0.1:9", TZ="UTC")
        self.env.pop("CHEST_CRASH_AT", None)
        self.daemon, self.dropped, self.imported, self.log = None, {}, set(), open(self.root + "/chestd.log", "ab")

    def start(self, crash_at=None, prefix=()):
        env = dict(self.env, **({"CHEST_CRASH_AT": crash_at} if crash_at else {}))
        self.daemon = subprocess.Popen(list(prefix) + [BIN + "/chestd"], env=env, stdout=self.log, stderr=self.log)
        deadline = time.time() + 15
        while time.time() < deadline and self.daemon.poll() is None:
            try:
                with socket.socket(socket.AF_UNIX) as s:
                    s.connect(self.env["CHEST_SOCKET"]); return
            except OSError:
                time.sleep(0.05)

    def kill(self, sig=signal.SIGKILL):
        if self.daemon and self.daemon.poll() is None:
            self.daemon.send_signal(sig)
        if self.daemon: self.daemon.wait()

    def drop(self, count, title="m"):
        """Writes each file beside the inbox and renames it in: once renamed, it is handed over."""
        for _ in range(count):
            ident, data = message(title)
            name = ident[:12] + ".locked"
            with open(self.root + "/" + name, "wb") as f: f.write(data)
            os.rename(self.root + "/" + name, self.chest + "/" + name)
            self.dropped[ident] = name

    def chest_cmd(self, *arguments):
        return subprocess.run([BIN + "/chest", *arguments], env=self.env, capture_output=True, text=True, timeout=60)

    def settle(self, timeout=180):
        """Restarts chestd and waits until the inbox and incoming/ are empty and the count stops moving."""
        self.kill(signal.SIGTERM); self.start()
        deadline, last = time.time() + timeout, -1
        while time.time() < deadline:
            inbox = [n for n in os.listdir(self.chest) if n.endswith(".locked")]
            staged = os.listdir(self.chest + "/incoming")
            count = len(os.listdir(self.chest + "/messages"))
            if not inbox and not staged and count == last: break
            last = count; time.sleep(1)

    def tally(self):
        stored = [n[:-7] for d in ("messages", "saved") for n in os.listdir(self.chest + "/" + d) if n.endswith(".locked")]
        rejected = [n for n in os.listdir(self.chest + "/rejected") if not n.endswith(".reason") and not n.startswith(".tmp-")]
        with_reason = [n for n in rejected if os.path.exists(self.chest + "/rejected/" + n[:250] + ".reason")
                       or any(r.startswith(n[:240]) and r.endswith(".reason") for r in os.listdir(self.chest + "/rejected"))]
        expected = set(self.dropped) | self.imported
        found = expected & set(stored)
        return {"in": len(expected), "found": len(found), "lost": len(expected - set(stored)) - 0,
                "duplicated": len(stored) - len(set(stored)), "rejected": len(rejected), "with reason": len(with_reason),
                "staged": len(os.listdir(self.chest + "/incoming"))}

    def close(self):
        self.kill(); shutil.rmtree(self.root, ignore_errors=True)


def kill_cycles(cycles):
    world = World()
    for _ in range(cycles):
        world.start()
        burst = int(400 * SCALE)
        world.drop(burst // 2)
        time.sleep(random.uniform(0.0, 0.3))
        world.drop(burst // 2)
        time.sleep(random.uniform(0.0, 0.3))
        world.kill()
    world.settle()
    return world, cycles


def import_cycles(cycles):
    world = World()
    files = []
    for index in range(int(60 * SCALE) * cycles):
        ident, data = message("imported")
        path = f"{world.root}/imp{index}.locked"
        with open(path, "wb") as f: f.write(data)
        files.append((ident, path))
    for cycle in range(cycles):
        world.start()
        killer = time.time() + random.uniform(0.2, 1.0)
        for ident, path in files[cycle::cycles]:
            if time.time() > killer: world.kill()
            outcome = world.chest_cmd("import", path)
            if outcome.returncode == 0 and ident in outcome.stdout: world.imported.add(ident)
        world.kill()
    world.settle()
    return world, cycles


def pin_hash(pin):
    """An Argon2id hash of PIN with m=64 MiB, t=2, p=1 (within chestd's caps), as `chest seal` makes it."""
    out = ctypes.create_string_buffer(128)
    assert sodium.crypto_pwhash_str_alg(out, pin.encode(), ctypes.c_ulonglong(len(pin)), ctypes.c_ulonglong(2),
                                        ctypes.c_size_t(64 << 20), 2) == 0
    return out.value.decode()


def full_filesystem():
    """A tmpfs filled to the last page while chestd must write: files renamed into the inbox (ingest writes each
    to messages/), a PIN attempt (the ledger) and an unlock (the state file). Then space is freed, chestd
    restarted, and every file, the attempt and the unlock must be there."""
    if os.geteuid() != 0: return None, 0, "not root"
    mount = tempfile.mkdtemp(prefix="chest-tmpfs-")
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mount]).returncode != 0: return None, 0, "no tmpfs"
    world = World(chest=mount + "/chest")
    try:
        world.start()
        pin_id, data = message("pin", [{"type": "pin", "argon2id": pin_hash("1234")}])
        with open(mount + "/p", "wb") as f: f.write(data)
        os.rename(mount + "/p", world.chest + "/pin.locked"); world.dropped[pin_id] = pin_id
        opens_at = time.time() + 12
        unlock_id, data = message("unlock", [{"type": "time", "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(opens_at))}])
        with open(mount + "/u", "wb") as f: f.write(data)
        os.rename(mount + "/u", world.chest + "/unlock.locked"); world.dropped[unlock_id] = unlock_id
        deadline = time.time() + 10
        while time.time() < deadline and len(os.listdir(world.chest + "/messages")) < 2: time.sleep(0.1)
        # Written while there is room, renamed in once there is none: a rename needs no space, chestd's copy does.
        os.makedirs(mount + "/out")
        pending = []
        import_id, data = message("imported while full")
        with open(mount + "/out/import.locked", "wb") as f: f.write(data)
        for _ in range(int(100 * SCALE)):
            ident, data = message("full")
            with open(mount + "/out/" + ident[:12] + ".locked", "wb") as f: f.write(data)
            pending.append(ident)
        try:
            with open(mount + "/ballast", "wb") as f:
                while True: f.write(b"\0" * 4096); f.flush()
        except OSError:
            pass
        for ident in pending:
            os.rename(mount + "/out/" + ident[:12] + ".locked", world.chest + "/" + ident[:12] + ".locked")
            world.dropped[ident] = ident
        # `chest import` makes chestd write a copy into messages/ (the inbox's files are adopted by rename instead).
        imported = world.chest_cmd("import", mount + "/out/import.locked")
        if imported.returncode == 0 and import_id in imported.stdout: world.imported.add(import_id)
        sys.stderr.write("full tmpfs, chest import: " + (imported.stdout + imported.stderr).strip() + "\n")
        attempt = world.chest_cmd("pin", pin_id[:12], "0000")
        counted = "wrong PIN" in attempt.stdout + attempt.stderr
        time.sleep(max(0, opens_at - time.time()) + 4)
        log = open(world.root + "/chestd.log", "rb").read()
        enospc = log.count(b"No space left on device")
        for line in log.splitlines():
            if b"No space left on device" in line: sys.stderr.write("full tmpfs, chestd: " + line.decode(errors="replace") + "\n")
        in_while_full = len([n for n in os.listdir(world.chest + "/messages") if n.endswith(".locked")])
        # An attempt is counted and compared, or neither: the next one, the right PIN, is never told another is
        # "being checked" (it was, until a restart, when the state write succeeded and the ledger's failed).
        try: wrong = json.load(open(world.chest + "/attempts/" + pin_id + ".json")).get("wrong", 0)
        except OSError: wrong = 0
        os.unlink(mount + "/ballast")
        right = world.chest_cmd("pin", pin_id[:12], "1234")
        accepted = "PIN accepted" in right.stdout
        if not accepted: sys.stderr.write("full tmpfs, the right PIN after freeing space: " + (right.stdout + right.stderr).strip() + "\n")
        world.settle()
        time.sleep(2)
        listing = {item["id"]: item for item in json.loads(world.chest_cmd("list", "--json").stdout or "[]")}
        opened = listing.get(unlock_id, {}).get("state") == "open"
        result = world.tally()
        note = (f"ENOSPC x{enospc}" if enospc else "NO ENOSPC") + f", {in_while_full} in while full, import " + \
               ("counted" if import_id in world.imported else "refused" + (" (ENOSPC)" if "No space" in imported.stdout + imported.stderr else "")) + \
               ", PIN " + \
               ("counted" if counted else "refused: " + (attempt.stdout + attempt.stderr).strip()[:40]) + \
               f", ledger {wrong}" + (", right PIN accepted after" if accepted else ", RIGHT PIN REFUSED") + \
               (", unlocked after" if opened else ", UNLOCK LOST")
        ok = enospc > 0 and opened and accepted and wrong == (1 if counted else 0)
        return result, 1, note if ok else "FAILED: " + note
    finally:
        world.kill()
        subprocess.run(["umount", "-l", mount]); shutil.rmtree(world.root, ignore_errors=True)


def descriptor_exhaustion():
    world = World()
    world.start()
    subprocess.run(["prlimit", "--pid", str(world.daemon.pid), "--nofile=64:64"], check=True)
    idle = []
    for _ in range(200):
        try:
            s = socket.socket(socket.AF_UNIX); s.setblocking(False)
            s.connect_ex(world.env["CHEST_SOCKET"]); idle.append(s)
        except OSError: break
    world.drop(int(200 * SCALE))
    status = world.chest_cmd("status", "--json")
    answered = status.returncode == 0 or '"ok":false' in status.stderr + status.stdout or "try again" in status.stderr
    time.sleep(3)
    for s in idle: s.close()
    world.settle()
    return world, 1, answered


QUEUE = "/proc/sys/fs/inotify/max_queued_events"


def storm():
    """50,000 renames into the inbox, chestd stopped meanwhile, with inotify's queue lowered to 1024 events (as
    root), so that it overflows and chestd must rescan. The limit is taken when chestd creates its inotify instance; the old value is put back
    when the phase ends, whatever happens."""
    old_limit = None
    if os.geteuid() == 0:
        old_limit = open(QUEUE).read().strip()
        with open(QUEUE, "w") as f: f.write("1024")
    try:
        return storm_phase()
    finally:
        if old_limit is not None:
            with open(QUEUE, "w") as f: f.write(old_limit)


def storm_phase():
    world = World()
    world.start()
    count = int(50_000 * SCALE)
    os.makedirs(world.root + "/out")
    names = []
    for _ in range(count):
        ident, data = message("storm")
        with open(world.root + "/out/" + ident[:16] + ".locked", "wb") as f: f.write(data)
        world.dropped[ident] = ident; names.append(ident[:16] + ".locked")
    # chestd's watcher drains the kernel's queue as fast as renames fill it, so it is stopped while they happen, as
    # a daemon starved of CPU would be: the queue fills to its limit and the kernel reports IN_Q_OVERFLOW.
    world.daemon.send_signal(signal.SIGSTOP)
    try:
        for name in names: os.rename(world.root + "/out/" + name, world.chest + "/" + name)
    finally:
        world.daemon.send_signal(signal.SIGCONT)
    deadline = time.time() + 300
    while time.time() < deadline and len(os.listdir(world.chest + "/messages")) < count: time.sleep(1)
    overflowed = open(world.root + "/chestd.log", "rb").read().count(b"inotify queue overflowed; rescanning the chest")
    before_restart = len(os.listdir(world.chest + "/messages"))  # taken by the overflow's rescan, not a restart's
    world.settle()
    return world, 1, overflowed, before_restart


def hostile_corpus():
    world = World()
    world.start()
    c = world.chest
    def put(name, data):
        with open(world.root + "/x", "wb") as f: f.write(data)
        os.rename(world.root + "/x", c.encode() + b"/" + name if isinstance(name, bytes) else c + "/" + name)
    _, good = message("good")
    put("truncated.locked", good[: len(good) // 2])
    put("empty.locked", b"")
    put("nan.locked", good.replace(b'"version": 1', b'"version": NaN'))
    put("dupkeys.locked", good.replace(b'"version": 1', b'"version": 1, "version": 2'))
    put("nested.locked", b"[" * 100_000 + b"]" * 100_000)
    put("latin1.locked", b"{\xff\xfe}")
    put("binary.locked", os.urandom(4096))
    for title, locks in [("escapes\x1b[2J\x1b]0;x\x07\nchestd: forged", None),
                         ("argon-m", [{"type": "pin", "argon2id": "$argon2id$v=19$m=2097152,t=20,p=1$c2FsdA$aGFzaA"}]),
                         ("argon-t", [{"type": "pin", "argon2id": "$argon2id$v=19$m=65536,t=4294967295,p=1$c2FsdA$aGFzaA"}]),
                         ("a" + "\u0301" * 150_000, None)]:
        ident, data = message(title, locks)
        put(ident[:12] + ".locked", data)
        if title.startswith("escapes"): world.dropped[ident] = ident
    ident, data = message("latin-1 name"); put(b"caf\xe9.locked", data); world.dropped[ident] = ident
    ident, data = message("long name"); put("n" * 248 + ".locked", data); world.dropped[ident] = ident
    with open(c + "/sparse.part", "wb") as f: f.truncate(3 << 30)
    os.rename(c + "/sparse.part", c + "/sparse.locked")
    with open(c + "/huge.part", "wb") as f: f.write(b" " * (2 << 20))
    os.rename(c + "/huge.part", c + "/huge.locked")
    os.symlink("/etc/passwd", c + "/symlink.locked")
    os.mkfifo(c + "/fifo.locked")
    if os.geteuid() == 0: os.mknod(c + "/device.locked", 0o600 | 0o020000, os.makedev(1, 3))
    os.mkdir(c + "/directory.locked")
    time.sleep(3)
    alive = world.daemon.poll() is None
    world.settle()
    return world, 1, alive


def crash_steps():
    rows = []
    for step in ["staged", "read", "storing", "stored", "rejecting", "persisted"]:
        world = World()
        soon = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 4))
        world.start(crash_at=step)
        if step == "persisted":
            ident, data = message("unlock", [{"type": "time", "at": soon}])
            with open(world.root + "/u", "wb") as f: f.write(data)
            os.rename(world.root + "/u", world.chest + "/unlock.locked"); world.dropped[ident] = ident
        else:
            world.drop(3)
            with open(world.chest + "/bad.locked", "wb") as f: f.write(b"{")
        try: world.daemon.wait(timeout=20)
        except subprocess.TimeoutExpired: pass
        crashed = world.daemon.poll() is not None
        world.settle()
        opened = None
        if step == "persisted":
            time.sleep(1)
            listing = json.loads(world.chest_cmd("list", "--json").stdout or "[]")
            opened = all(item["state"] == "open" for item in listing) and len(listing) == 1
        rows.append((step, crashed, opened, world))
    return rows


def main():
    results, failed = [], False
    def row(name, world_or_tally, cycles, note=""):
        nonlocal failed
        tally = world_or_tally if isinstance(world_or_tally, dict) else world_or_tally.tally()
        if tally["lost"] or tally["duplicated"] or tally["staged"]: failed = True
        results.append((name, cycles, tally, note))
        if not isinstance(world_or_tally, dict): world_or_tally.close()
    only = set(filter(None, os.environ.get("TORTURE_PHASES", "").split(",")))  # e.g. TORTURE_PHASES=full,storm
    def want(name): return not only or name in only
    if want("kill"):
        world, cycles = kill_cycles(int(os.environ.get("TORTURE_CYCLES", "10"))); row("kill -9 during bursts", world, cycles)
    if want("import"):
        world, cycles = import_cycles(5); row("kill -9 during chest import", world, cycles)
    if want("full"):
        tally, cycles, note = full_filesystem()
        if tally: row("full 4 MB tmpfs, freed, restart", tally, cycles, note)
        failed = failed or note.startswith("FAILED")
    if want("nofile"):
        world, cycles, answered = descriptor_exhaustion()
        row("nofile=64, 200 idle connections", world, cycles, "status answered" if answered else "STATUS UNANSWERED")
        failed = failed or not answered
    if want("storm"):
        world, cycles, overflowed, before_restart = storm()
        row(f"{int(50_000 * SCALE)}-file storm", world, cycles,
            (f"queue 1024: overflowed x{overflowed}, {before_restart} in before restart" if overflowed else "NO OVERFLOW"))
        failed = failed or not overflowed
    if want("hostile"):
        world, cycles, alive = hostile_corpus()
        row("hostile corpus", world, cycles, "chestd alive" if alive else "CHESTD DIED")
        failed = failed or not alive
    for step, crashed, opened, world in (crash_steps() if want("crash") else []):
        note = ("aborted" if crashed else "DID NOT ABORT") + ("" if opened is None else ", unlock kept" if opened else ", UNLOCK LOST")
        failed = failed or not crashed or opened is False
        row(f"CHEST_CRASH_AT={step}", world, 1, note)
    header = f"| {'phase':34} | cycles | files in | found | lost | duplicated | rejected | with reason | staged | note"
    print(header); print("|" + "---|" * 10)
    for name, cycles, t, note in results:
        print(f"| {name:34} | {cycles:6} | {t['in']:8} | {t['found']:5} | {t['lost']:4} | {t['duplicated']:10} | "
              f"{t['rejected']:8} | {t['with reason']:11} | {t['staged']:6} | {note}")
    print("FAILED" if failed else "passed: nothing lost, duplicated or left staged")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
