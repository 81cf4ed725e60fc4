#!/usr/bin/env python3
# What the first-fit rule of default areas (before issue 36, finding 4) let an attacker rule out; kept to back the
# figures of docs/SECURITY.md "Default areas". Run: python3 scripts/default-overlap.py
# Finding 4 with 110 km default areas: a second place d km from the first, same organiser. When it is not whole in
# the first area, it gets a new one drawn around it; the share of the new area the first one covers is what the
# attacker leaves out. Planar, 20,000 trials per distance.
import math, random
R = 110.0
def lens(d, r1, r2):
    if d >= r1 + r2: return 0.0
    if d <= abs(r1 - r2): return math.pi * min(r1, r2) ** 2
    a = math.acos((d*d + r1*r1 - r2*r2) / (2*d*r1)); b = math.acos((d*d + r2*r2 - r1*r1) / (2*d*r2))
    return r1*r1*(a - math.sin(2*a)/2) + r2*r2*(b - math.sin(2*b)/2)
def disk(cx, cy):
    while True:
        x, y = random.uniform(-R, R), random.uniform(-R, R)
        if x*x + y*y <= R*R: return cx + x, cy + y
random.seed(36)
for d in [40, 80, 110, 150, 200]:
    shares, reused = [], 0
    for _ in range(20000):
        a1 = disk(0, 0)
        if math.hypot(a1[0] - d, a1[1]) <= R - 0.03: reused += 1; continue
        a2 = disk(d, 0)
        shares.append(lens(math.hypot(a1[0]-a2[0], a1[1]-a2[1]), R, R) / (math.pi * R * R))
    shares.sort()
    n = len(shares)
    print(f"{d:4d} km: reused the first area {reused/200:.0f} %; otherwise excluded mean {sum(shares)/n*100:.1f} %, median {shares[n//2]*100:.1f} %, 90th {shares[int(n*.9)]*100:.1f} %, max {shares[-1]*100:.1f} %")
