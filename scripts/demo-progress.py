#!/usr/bin/env python3
"""make demo's progress line: every few seconds, where the walk is, how far it went, and the next lock.

Usage: demo-progress.py CHEST_BINARY MESSAGE_ID INTERVAL
Prints one line per interval until it is killed; the demo stops it when the walk ends. On exit (SIGTERM) it
prints the summary of the last state it saw while gpsd was still connected.
"""
import json, math, signal, subprocess, sys, time

chest, message, interval = sys.argv[1], sys.argv[2], float(sys.argv[3])
walked, last, snapshot = 0.0, None, None


def ask(*words):
    try:
        out = subprocess.run([chest, *words], capture_output=True, text=True, timeout=5)
        return json.loads(out.stdout) if out.returncode == 0 else None
    except (subprocess.SubprocessError, ValueError):
        return None


def metres(a, b):
    (la1, lo1), (la2, lo2) = [(math.radians(x), math.radians(y)) for x, y in (a, b)]
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(math.sqrt(h))


def next_lock(read):
    for page in read["pages"]:
        if page["open"]:
            continue
        for lock_set in page["sets"]:
            for lock in lock_set["locks"]:
                if not lock["holds"]:
                    return f"page {page['number']}, {lock['type']}: {lock['reason']}"
    return "every page is open"


def summary(*_):
    if snapshot:
        opened = [p["number"] for p in snapshot["pages"] if p["open"]]
        print(f"\n== The walk is over: {walked:.0f} m walked, pages {', '.join(map(str, opened)) or 'none'} open "
              f"of {len(snapshot['pages'])}.")
        for page in snapshot["pages"]:
            if not page["open"]:
                reasons = [l["reason"] for s in page["sets"] for l in s["locks"] if not l["holds"]]
                print(f"   page {page['number']} stays shut: {'; '.join(reasons)} (at the end of the walk)")
    sys.stdout.flush()
    sys.exit(0)


signal.signal(signal.SIGTERM, summary)
while True:
    time.sleep(interval)
    # The page first, then the fix: a fix still there after the page was read was there while it was read, so the
    # summary never takes a page whose reasons speak of a fix that aged out in between (a slow machine).
    read, status = ask("read", message, "--json"), ask("status", "--json")
    if not status or not read:
        continue
    fix = status.get("fix") or {}
    if not status["gpsd"]["connected"] or fix.get("latitude") is None or fix.get("mode", 0) < 2:
        print("   … no GPS fix right now (under the trees?)", flush=True)
        continue
    here = (fix["latitude"], fix["longitude"])
    if last:
        walked += metres(last, here)
    last, snapshot = here, read
    altitude = f", {fix['altitudeMSL']:.0f} m" if fix.get("altitudeMSL") is not None else ""
    print(f"   … at {here[0]:.6f} N {here[1]:.6f} E{altitude}, {walked:.0f} m walked; next: {next_lock(read)}",
          flush=True)
