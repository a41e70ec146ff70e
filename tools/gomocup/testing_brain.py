#!/usr/bin/env python3
"""A brain for testing the referee: speaks the Gomocup protocol and misbehaves on
purpose. Modes (first argument):

- ``first-empty``: plays the first empty point in reading order (row 0 first);
- ``taken``: plays the point the opponent just played;
- ``slow SECONDS``: sleeps, then plays as first-empty;
- ``error``: answers every move request with ``ERROR``;
- ``crash``: exits when asked for a move;
- ``script X,Y X,Y ...``: plays these points in order, then as first-empty;
- ``slow-setup SECONDS``: sleeps on ``INFO rule`` (as a brain that loads its
  evaluation for the rule), then plays as first-empty.

``ABOUT`` is answered with a name line.

Every move answer is preceded by a ``MESSAGE`` line, which the referee must skip.
"""

import sys
import time


def main() -> None:
    mode, args = sys.argv[1], sys.argv[2:]
    script = [tuple(map(int, a.split(","))) for a in args] if mode == "script" else []
    size = 0
    stones: set[tuple[int, int]] = set()
    last = None
    block = False

    def say(line: str) -> None:
        sys.stdout.write(line + "\r\n")
        sys.stdout.flush()

    def move() -> None:
        if mode == "error":
            say("ERROR testing brain refuses")
            return
        if mode == "crash":
            sys.exit(3)
        if mode == "slow":
            time.sleep(float(args[0]))
        if mode == "taken" and last is not None:
            point = last
        elif script:
            point = script.pop(0)
        else:
            point = next((x, y) for y in range(size) for x in range(size)
                         if (x, y) not in stones)
        stones.add(point)
        say("MESSAGE testing brain plays")
        say(f"{point[0]},{point[1]}")

    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        word = line.split()[0].upper()
        if block:
            if word == "DONE":
                block = False
                move()
            else:
                x, y, _ = map(int, line.split(","))
                stones.add((x, y))
                last = (x, y)
            continue
        if word == "START":
            size = int(line.split()[1])
            say("OK")
        elif word == "BOARD":
            stones.clear()
            block = True
        elif word == "BEGIN":
            move()
        elif word == "TURN":
            last = tuple(map(int, line.split()[1].split(",")))
            stones.add(last)
            move()
        elif word == "END":
            return
        elif word == "ABOUT":
            say('name="testing brain"')
        elif word == "INFO" and mode == "slow-setup" and line.split()[1].lower() == "rule":
            time.sleep(float(args[0]))
        elif word != "INFO":
            say(f"UNKNOWN {word}")


if __name__ == "__main__":
    main()
