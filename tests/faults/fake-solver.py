#!/usr/bin/env python3
"""A misbehaving SMT solver for the fault-injection tests (tests/faults.rs).

Usage: fake-solver.py MODE N PIDFILE REAL_SOLVER [ARGS...]

Runs REAL_SOLVER ARGS as a child and passes commands and replies through, line by
line, until the N-th `(check-sat` command; from then on it misbehaves per MODE:

  exit       exits (status 3) instead of passing the N-th check-sat on
  hang       stops answering and reading: sleeps until killed
  garbage    answers the check-sat with `)(garbage ((` instead of asking the solver
  model      answers the check-sat with a model `((x 1))` (a reply of the wrong kind)
  unknown    answers this and every later check-sat with `unknown`
  slow       passes everything on, but waits 0.4 s before each check-sat
  stderr     writes 4 MB to standard error, then passes everything on
  none       passes everything on (the control)

Its own PID and its child's are appended to PIDFILE, so the test can check that
none is left running.  The child dies with it (PR_SET_PDEATHSIG).
"""
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time


def die_with_parent():
    try:
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def main():
    mode, n, pidfile, real = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    child = subprocess.Popen(
        [real] + sys.argv[5:],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        bufsize=0,
        preexec_fn=die_with_parent,
    )
    with open(pidfile, "a") as f:
        f.write(f"{os.getpid()}\n{child.pid}\n")
    out = sys.stdout.buffer
    lock = threading.Lock()

    def reply(text):
        with lock:
            out.write(text)
            out.flush()

    def pump():
        for line in child.stdout:
            reply(line)

    threading.Thread(target=pump, daemon=True).start()
    seen = 0
    for line in sys.stdin.buffer:
        if b"(check-sat" in line:
            seen += 1
            if seen >= n:
                if mode == "exit":
                    os._exit(3)
                if mode == "hang":
                    while True:
                        time.sleep(3600)
                if mode == "garbage" and seen == n:
                    reply(b")(garbage ((\n")
                    continue
                if mode == "model" and seen == n:
                    reply(b"((x 1))\n")
                    continue
                if mode == "unknown":
                    reply(b"unknown\n")
                    continue
                if mode == "slow":
                    time.sleep(0.4)
                if mode == "stderr" and seen == n:
                    chunk = b"e" * 1023 + b"\n"
                    for _ in range(4096):
                        sys.stderr.buffer.write(chunk)
                    sys.stderr.buffer.flush()
        try:
            child.stdin.write(line)
        except BrokenPipeError:
            os._exit(4)
    child.stdin.close()
    child.wait()


if __name__ == "__main__":
    main()
