#!/usr/bin/env python3
"""Noisy walks as a consumer receiver sends them, for scripts/bench.sh: RMC, GGA and GSA (no GSV) at 1 Hz.
Writes NMEA to stdout.

  noisy-feed.py EPOCHS LAT LON [SEED]       step 6: EPOCHS epochs wandering ±3 m around a 1.4 m/s walk north
                                            from LAT,LON, altitude 410 m ±4
  noisy-feed.py hill LAPS LAT LON [SEED]    step 7 (issue 34's feed): LAPS laps of a 640 m loop round a hill
                                            centred on LAT,LON (an ellipse of 120 m east-west by 80 m north-south)
                                            at 1.4 m/s, 2 m of noise in each axis, the altitude climbing from
                                            410 m to 450 m and back each lap (±3 m of noise)"""
import datetime, math, random, sys

hill = sys.argv[1] == "hill"
arguments = sys.argv[2:] if hill else sys.argv[1:]
count, lat0, lon0 = int(arguments[0]), float(arguments[1]), float(arguments[2])
random.seed(int(arguments[3]) if len(arguments) > 3 else 1)
start = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
metres_per_degree = 111_195


def checksummed(body):
    value = 0
    for char in body: value ^= ord(char)
    return f"${body}*{value:02X}\r\n"


def nmea_angle(value, degrees_width, positive, negative):
    hemisphere = positive if value >= 0 else negative
    value = abs(value)
    degrees = int(value)
    return f"{degrees:0{degrees_width}d}{(value - degrees) * 60:07.4f}", hemisphere


def epoch(index, north, east, altitude, knots, course):
    """One epoch's three sentences at start + index seconds, at `north`, `east` metres from LAT,LON."""
    at = start + datetime.timedelta(seconds=index)
    lat = lat0 + north / metres_per_degree
    lon = lon0 + east / (metres_per_degree * math.cos(math.radians(lat0)))
    (la, ns), (lo, ew) = nmea_angle(lat, 2, "N", "S"), nmea_angle(lon, 3, "E", "W")
    time, date = at.strftime("%H%M%S.00"), at.strftime("%d%m%y")
    sys.stdout.write(checksummed(f"GPRMC,{time},A,{la},{ns},{lo},{ew},{knots:.1f},{course:.1f},{date},,,A"))
    sys.stdout.write(checksummed(f"GPGGA,{time},{la},{ns},{lo},{ew},1,08,1.1,{altitude:.1f},M,47.4,M,,"))
    sys.stdout.write(checksummed("GPGSA,A,3,02,05,07,13,15,20,24,30,,,,,1.9,1.1,1.5"))


if hill:
    # The ellipse's perimeter (Ramanujan's approximation) walked at 1.4 m/s: about 457 epochs a lap.
    a, b, speed = 120.0, 80.0, 1.4
    perimeter = math.pi * (3 * (a + b) - math.sqrt((3 * a + b) * (a + 3 * b)))
    per_lap = round(perimeter / speed)
    for index in range(count * per_lap):
        angle = 2 * math.pi * (index % per_lap) / per_lap
        course = math.degrees(math.atan2(-a * math.sin(angle), b * math.cos(angle))) % 360
        epoch(index, b * math.sin(angle) + random.gauss(0, 2), a * math.cos(angle) + random.gauss(0, 2),
              430 - 20 * math.cos(angle) + random.gauss(0, 3), speed * 1.944, course)
else:
    for index in range(count):
        epoch(index, index * 1.4 + random.gauss(0, 3), random.gauss(0, 3), 410 + random.gauss(0, 4), 2.7, 0.0)
