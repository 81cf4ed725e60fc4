#!/usr/bin/env python3
"""A noisy walk as a consumer receiver sends it, for scripts/bench.sh step 6: EPOCHS epochs of RMC, GGA and GSA
(no GSV), the position wandering a few metres around a 1.4 m/s walk north from LAT,LON. Writes NMEA to stdout.
Usage: noisy-feed.py EPOCHS LAT LON [SEED]"""
import datetime, math, random, sys

epochs, lat0, lon0 = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
random.seed(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
start = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)


def checksummed(body):
    value = 0
    for char in body: value ^= ord(char)
    return f"${body}*{value:02X}\r\n"


def nmea_angle(value, degrees_width, positive, negative):
    hemisphere = positive if value >= 0 else negative
    value = abs(value)
    degrees = int(value)
    return f"{degrees:0{degrees_width}d}{(value - degrees) * 60:07.4f}", hemisphere


for epoch in range(epochs):
    at = start + datetime.timedelta(seconds=epoch)
    north = epoch * 1.4 + random.gauss(0, 3)
    east = random.gauss(0, 3)
    lat = lat0 + north / 111_195
    lon = lon0 + east / (111_195 * math.cos(math.radians(lat0)))
    (la, ns), (lo, ew) = nmea_angle(lat, 2, "N", "S"), nmea_angle(lon, 3, "E", "W")
    time, date = at.strftime("%H%M%S.00"), at.strftime("%d%m%y")
    altitude = 410 + random.gauss(0, 4)
    sys.stdout.write(checksummed(f"GPRMC,{time},A,{la},{ns},{lo},{ew},2.7,0.0,{date},,,A"))
    sys.stdout.write(checksummed(f"GPGGA,{time},{la},{ns},{lo},{ew},1,08,1.1,{altitude:.1f},M,47.4,M,,"))
    sys.stdout.write(checksummed("GPGSA,A,3,02,05,07,13,15,20,24,30,,,,,1.9,1.1,1.5"))
