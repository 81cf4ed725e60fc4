#!/usr/bin/env python3
"""The messages scripts/bench.sh measures chestd on, as a quest that `chest compose --quest` builds (issue 62: the
figures a user meets are those of the messages compose writes, not chest-bench's). Writes the quest to stdout.

  bench-quest.py COUNT

COUNT messages of one page each, every one with a title and a sentence or two of text as an organiser writes them:
- 90 %: a visible 30 m place (`location=…/30m,visible=NAME`) on a 0.001° grid centred half a step east of the hill of
  step 7 (47.3769, 8.5417), so the fast replay and the noisy walk, going north along 8.5417, pass 38 m from every
  place and open none, while the hill walk's loop crosses a few;
- 5 %: a sealed 30 m place (format 3, the quest's declared search area, one grid), on a like grid round 47.50, 8.54,
  13 km north of the walks: outside its search area every fix maps to no cell, so the feeds measure the fix path,
  not Argon2id (scripts/bench-seal-latency.sh measures the derivations);
- 5 %: a PIN page (`pin=…`, format 5).
bench.sh composes it with `--seal-cost interactive`: the files are compose's, byte for byte, but for the Argon2id
parameters written in each slot, which chestd reads and keeps the same way at any cost."""
import math, sys

count = int(sys.argv[1])
side = math.isqrt(count - 1) + 1
print("# scripts/bench-quest.py: the messages of scripts/bench.sh (docs/BENCHMARKS.md)")
print("from: The bench organiser")
print("search-area: 47.50,8.54/3km")
for index in range(count):
    row, column = index // side - side // 2, index % side - side // 2
    kind = index % 20
    print(f"message: m{index}")
    if kind == 7:
        print(f"title: Sealed stage {index} of the town trail")
        print(f"page: You found stage {index}. Look under the bench by the old linden tree for the next clue.")
        print(f"  lock: location={47.50 + row * 0.0004:.6f},{8.54 + column * 0.0004:.6f}/30m")
    elif kind == 13:
        print(f"title: Code box {index}")
        print(f"page: The code was right. Box {index} holds the key to the chapel door; bring it back afterwards.")
        print(f"  lock: pin={1000 + index % 9000}")
    else:
        lat, lon = 47.3769 + row * 0.001, 8.5417 + (column + 0.5) * 0.001
        print(f"title: Stage {index}: the fountain on the square")
        print(f"page: Well done, you reached stage {index}. Count the lions on the fountain and write the number")
        print("| on your card before you go on to the next stage.")
        print(f"  lock: location={lat:.6f},{lon:.6f}/30m,visible=Stage {index}")
