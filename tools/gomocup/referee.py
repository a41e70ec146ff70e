#!/usr/bin/env python3
"""A Gomocup referee of our own: plays two brains against each other over the Gomocup
(Piskvork) protocol and checks every answer. Python standard library only.

It starts each brain as a process, speaks the protocol to it on stdin / stdout as a
manager does (``START``, ``INFO``, ``BEGIN`` or ``BOARD`` .. ``DONE`` for a brain's
first move, ``TURN`` after that, ``INFO time_left`` before every move of a limited
match, ``END``), keeps the board itself, and ends the game at the first fault:

- an answer that is not ``X,Y`` (an ``ERROR``, ``UNKNOWN``, garbage, or the process
  dying) — reason ``error``;
- a point off the board or already taken — ``illegal``;
- an answer later than ``timeout_turn`` (or the match time) plus the tolerance —
  ``timeout``;
- under renju, a black move that is forbidden (double-three, double-four, overline,
  by ``gomoku_rules``) — ``forbidden``;

otherwise at a five (``five``; by the rule: exactly five for standard and renju black)
or a full board (``full``, a draw). The brain at fault loses. ``MESSAGE`` / ``DEBUG``
lines are read and kept, not judged. Each game becomes one JSON object (a JSONL line):
players, rule, size, opening, every move with its time in ms, result and reason.

One game from the command line (for a match of many, see ``match.py``)::

    python3 tools/gomocup/referee.py --black target/release/pbrain-gameai \\
        --white target/release/pbrain-oneply --rule freestyle --size 15 \\
        --turn-ms 200 --opening h8,h9,i8 --out games.jsonl --require-clean

Exit status: 0; 1 with ``--require-clean`` when the game did not end by a five or a
full board (some brain was at fault); 2 on a usage error.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import queue
import shlex
import subprocess
import sys
import threading
import time

import gomoku_rules as rules
from gomoku_rules import BLACK, WHITE, Board

COLOUR_NAMES = {BLACK: "black", WHITE: "white"}
# Reasons a game ends; the first two are clean ends, the rest a brain's fault.
CLEAN_REASONS = ("five", "full")


class BrainFault(Exception):
    """A brain did something that loses the game; `reason` is the record's reason."""

    def __init__(self, reason: str, detail: str):
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


class Brain:
    """One brain process and the lines it writes, read by a thread of their own so that
    every line carries the time it arrived."""

    def __init__(self, command: str | list[str], name: str, stderr_path: str | None = None):
        self.name = name
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        self._stderr = open(stderr_path, "ab") if stderr_path else subprocess.DEVNULL
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self._stderr, bufsize=0)
        self._lines: queue.Queue = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.messages: list[str] = []

    def _read(self) -> None:
        """Splits the output on CR, LF or CR LF (all allowed by the protocol)."""
        pending = b""
        fd = self.proc.stdout.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            pending += chunk
            while True:
                cuts = [i for i in (pending.find(b"\r"), pending.find(b"\n")) if i >= 0]
                if not cuts:
                    break
                cut = min(cuts)
                line, pending = pending[:cut], pending[cut + 1:]
                if line.strip():
                    self._lines.put((time.monotonic(), line.decode("utf-8", "replace").strip()))
        if pending.strip():
            self._lines.put((time.monotonic(), pending.decode("utf-8", "replace").strip()))
        self._lines.put((time.monotonic(), None))

    def send(self, *lines: str) -> float:
        """Writes lines (CR LF ended, as the Gomocup manager does); returns the time just
        before the write (a brain's time runs from then)."""
        data = "".join(f"{line}\r\n" for line in lines).encode()
        began = time.monotonic()
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise BrainFault("error", f"{self.name}: cannot write to the brain ({e})") from e
        return began

    def answer(self, wait_s: float) -> tuple[str, float]:
        """The next line that is not MESSAGE / DEBUG (those are kept in `messages`), and
        the time it arrived. Raises BrainFault on timeout or when the process ends."""
        deadline = time.monotonic() + wait_s
        while True:
            try:
                arrived, line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise BrainFault("timeout", f"{self.name}: no answer within {wait_s:.1f} s") from None
            if line is None:
                code = self.proc.poll()
                raise BrainFault("error", f"{self.name}: the brain exited (status {code})")
            word = line.split(maxsplit=1)[0].upper()
            if word in ("MESSAGE", "DEBUG"):
                self.messages.append(line)
                continue
            return line, arrived

    def end(self, grace_s: float = 1.0) -> float:
        """Sends END and waits for the process to exit; kills it after `grace_s`
        (the protocol: the manager terminates a brain that takes too long). Returns the
        seconds it took, or -1 if it had to be killed."""
        began = time.monotonic()
        try:
            self.send("END")
        except BrainFault:
            pass
        try:
            self.proc.wait(timeout=grace_s)
            took = time.monotonic() - began
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            took = -1.0
        # The process is gone, so its output ends: let the reader see the end of it.
        self._reader.join(timeout=1.0)
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        if self._stderr is not subprocess.DEVNULL:
            self._stderr.close()
        return took


@dataclasses.dataclass
class Player:
    """A brain and its limits for one game."""
    name: str
    command: str
    turn_ms: int = 1000          # INFO timeout_turn; 0 = play as fast as possible
    match_ms: int = 0            # INFO timeout_match; 0 = no limit
    max_memory: int = 350 << 20  # INFO max_memory (Gomocup's usual 350 MB)


def parse_move(line: str, brain: str) -> tuple[int, int]:
    """'X,Y' -> (x, y); anything else is the brain's fault."""
    parts = line.split(",")
    if len(parts) == 2 and all(p.strip().isdigit() for p in parts):
        return int(parts[0]), int(parts[1])
    word = line.split(maxsplit=1)[0].upper()
    if word in ("ERROR", "UNKNOWN"):
        raise BrainFault("error", f"{brain} answered '{line}'")
    raise BrainFault("error", f"{brain} answered '{line}', not a move X,Y")


def start_brain(player: Player, size: int, rule: str, init_wait_s: float,
                stderr_path: str | None, settle: bool = False) -> Brain:
    brain = Brain(player.command, player.name, stderr_path)
    brain.send(f"START {size}")
    line, _ = brain.answer(init_wait_s)
    if line.split(maxsplit=1)[0].upper() != "OK":
        raise BrainFault("error", f"{player.name} answered '{line}' to START {size}")
    brain.send(f"INFO timeout_turn {player.turn_ms}",
               f"INFO timeout_match {player.match_ms}",
               f"INFO max_memory {player.max_memory}",
               "INFO game_type 1",
               f"INFO rule {rules.RULE_BITMASK[rule]}")
    if settle:
        # ABOUT after the INFO lines, its answer awaited untimed like START's: a brain
        # that sets itself up on INFO (Rapfi loads its evaluation on `INFO rule` and
        # sizes its table on `INFO max_memory`) has done so before its first move's
        # clock starts.
        brain.send("ABOUT")
        brain.answer(init_wait_s)
    return brain


def play_game(black: Player, white: Player, *, size: int = 15, rule: str = "freestyle",
              opening: list[tuple[int, int]] = (), tolerance_ms: int = 100,
              init_wait_s: float = 30.0, stderr_dir: str | None = None,
              keep_messages: bool = False, settle: bool = False) -> dict:
    """Plays one game; returns its record (see the module docs)."""
    if rule not in rules.RULES:
        raise ValueError(f"rule '{rule}' is not one of {rules.RULES}")
    players = {BLACK: black, WHITE: white}
    board = Board(size)
    colour = BLACK
    for x, y in opening:
        if board.get(x, y) != rules.EMPTY:
            raise ValueError(f"opening point {(x, y)} is off the board or taken")
        board.set(x, y, colour)
        if rules.wins(board, x, y, colour, rule):
            raise ValueError("the opening already contains a five")
        colour = rules.other(colour)
    history: list[tuple[int, int]] = list(opening)
    record = {
        "black": black.name, "white": white.name, "size": size, "rule": rule,
        "turn_ms": {"black": black.turn_ms, "white": white.turn_ms},
        "match_ms": {"black": black.match_ms, "white": white.match_ms},
        "tolerance_ms": tolerance_ms,
        "opening": [rules.to_notation(p, size) for p in opening],
        "moves": [], "times_ms": [],
        "result": None, "winner": None, "reason": None, "detail": None,
    }
    messages: list[dict] = []
    brains: dict[int, Brain] = {}
    used_ms = {BLACK: 0.0, WHITE: 0.0}
    told = {BLACK: False, WHITE: False}
    at_fault = None
    try:
        for c in (BLACK, WHITE):
            at_fault = c
            stderr_path = (os.path.join(stderr_dir, f"{players[c].name}.stderr")
                           if stderr_dir else None)
            brains[c] = start_brain(players[c], size, rule, init_wait_s, stderr_path, settle)
        while True:
            if board.is_full():
                record.update(result="draw", reason="full")
                break
            at_fault = colour
            player, brain = players[colour], brains[colour]
            if player.match_ms:
                brain.send(f"INFO time_left {int(player.match_ms - used_ms[colour])}")
            if not told[colour]:
                # As piskvork does: BEGIN on an empty board, TURN for the second
                # brain's first move of a game without an opening, BOARD otherwise.
                if not opening and len(history) == 1:
                    x, y = history[-1]
                    sent = brain.send(f"TURN {x},{y}")
                elif history:
                    lines = ["BOARD"]
                    for i, (x, y) in enumerate(history):
                        mine = (i % 2 == 0) == (colour == BLACK)
                        lines.append(f"{x},{y},{1 if mine else 2}")
                    lines.append("DONE")
                    sent = brain.send(*lines)
                else:
                    sent = brain.send("BEGIN")
                told[colour] = True
            else:
                x, y = history[-1]
                sent = brain.send(f"TURN {x},{y}")
            limit_ms = player.turn_ms if player.turn_ms else 5000
            if player.match_ms:
                limit_ms = min(limit_ms, max(0.0, player.match_ms - used_ms[colour]))
            line, arrived = brain.answer((limit_ms + tolerance_ms) / 1000 + 1.0)
            elapsed_ms = (arrived - sent) * 1000
            used_ms[colour] += elapsed_ms
            if keep_messages and brain.messages:
                messages.append({"ply": len(history), "lines": brain.messages})
            brain.messages = []
            x, y = parse_move(line, player.name)
            if player.turn_ms and elapsed_ms > player.turn_ms + tolerance_ms:
                raise BrainFault("timeout", f"{player.name} took {elapsed_ms:.0f} ms for a "
                                 f"{player.turn_ms} ms turn")
            if player.match_ms and used_ms[colour] > player.match_ms + tolerance_ms:
                raise BrainFault("timeout", f"{player.name} used {used_ms[colour]:.0f} ms of a "
                                 f"{player.match_ms} ms match")
            if not board.on_board(x, y):
                raise BrainFault("illegal", f"{player.name} played {x},{y}, off the board")
            if board.get(x, y) != rules.EMPTY:
                raise BrainFault("illegal", f"{player.name} played {x},{y} "
                                 f"({rules.to_notation((x, y), size)}), already taken")
            if rule == "renju" and colour == BLACK:
                kind = rules.forbidden_kind(board, x, y)
                if kind:
                    raise BrainFault("forbidden", f"{player.name} played "
                                     f"{rules.to_notation((x, y), size)}, a forbidden "
                                     f"{rules.KIND_NAMES[kind]}")
            board.set(x, y, colour)
            history.append((x, y))
            record["moves"].append(rules.to_notation((x, y), size))
            record["times_ms"].append(round(elapsed_ms, 1))
            if rules.wins(board, x, y, colour, rule):
                record.update(result=COLOUR_NAMES[colour], winner=player.name, reason="five")
                break
            colour = rules.other(colour)
    except BrainFault as fault:
        loser = at_fault if at_fault is not None else colour
        winner = rules.other(loser)
        record.update(result=COLOUR_NAMES[winner], winner=players[winner].name,
                      reason=fault.reason, detail=fault.detail)
    finally:
        record["end_s"] = {COLOUR_NAMES[c]: round(b.end(), 3) for c, b in brains.items()}
    record["plies"] = len(history)
    if keep_messages:
        record["messages"] = messages
    return record


def parse_opening(text: str, size: int) -> list[tuple[int, int]]:
    """'h8,h9,i8' (project notation, black first) -> protocol points."""
    return [rules.from_notation(p, size) for p in text.split(",") if p.strip()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--black", required=True, help="command line of the black brain")
    ap.add_argument("--white", required=True, help="command line of the white brain")
    ap.add_argument("--black-name", default="black")
    ap.add_argument("--white-name", default="white")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--rule", choices=rules.RULES, default="freestyle")
    ap.add_argument("--turn-ms", type=int, default=1000, help="INFO timeout_turn (both)")
    ap.add_argument("--match-ms", type=int, default=0, help="INFO timeout_match (both)")
    ap.add_argument("--tolerance-ms", type=int, default=100,
                    help="lateness forgiven beyond the limits (default 100)")
    ap.add_argument("--opening", default="", help="stones before the game, e.g. h8,h9,i8")
    ap.add_argument("--out", help="append the game's record (JSONL) to this file")
    ap.add_argument("--messages", action="store_true", help="keep MESSAGE lines in the record")
    ap.add_argument("--require-clean", action="store_true",
                    help="exit 1 unless the game ended by a five or a full board")
    args = ap.parse_args(argv)
    try:
        opening = parse_opening(args.opening, args.size)
    except ValueError as e:
        ap.error(str(e))
    black = Player(args.black_name, args.black, args.turn_ms, args.match_ms)
    white = Player(args.white_name, args.white, args.turn_ms, args.match_ms)
    record = play_game(black, white, size=args.size, rule=args.rule, opening=opening,
                       tolerance_ms=args.tolerance_ms, keep_messages=args.messages)
    line = json.dumps(record)
    if args.out:
        with open(args.out, "a") as f:
            f.write(line + "\n")
    times = record["times_ms"]
    print(f"{record['black']} (black) vs {record['white']} (white), {args.rule} "
          f"{args.size}x{args.size}: {record['result']} by {record['reason']} after "
          f"{record['plies']} plies ({len(record['moves'])} played); slowest answer "
          f"{max(times) if times else 0:.0f} ms; END took {record['end_s']} s")
    if record["detail"]:
        print(f"  {record['detail']}")
    print("  moves: " + " ".join(record["moves"]))
    if args.require_clean and record["reason"] not in CLEAN_REASONS:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
