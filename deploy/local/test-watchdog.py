#!/usr/bin/env python3
"""Ends a test run that hangs, naming what hung.

Usage: test-watchdog.py EVENTS SCRIPT_PID MINUTES

`dev test` starts this beside `swift test`, which writes Swift Testing's event stream to EVENTS. While the
script (SCRIPT_PID) runs, nothing happens. If it is still running after MINUTES, the tests that started
and never ended are printed, and the script's test processes are ended: CI then fails at once with the
culprit named, rather than at its own limit with nothing said. (A whole-suite run beside stress-ng once
never ended, with every task of the test process waiting and nothing on the network or a timer; what
`swift test` relays of the test process's output had stopped 17 minutes earlier.)
"""
import json
import os
import subprocess
import sys
import time


def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


def children(pid):
    run = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(line) for line in run.stdout.split()]


def still_running(events):
    running = {}
    try:
        with open(events, errors="replace") as stream:
            for line in stream:
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                if record.get("kind") != "event":
                    continue
                payload = record.get("payload", {})
                test = payload.get("testID")
                if payload.get("kind") == "testStarted":
                    running[test] = True
                elif payload.get("kind") == "testEnded":
                    running.pop(test, None)
    except FileNotFoundError:
        pass
    return list(running)


def main():
    events, script, minutes = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    deadline = time.monotonic() + minutes * 60
    while time.monotonic() < deadline:
        if not alive(script):
            return
        time.sleep(5)
    if not alive(script):
        return
    tests = [test for test in still_running(events) if test and "/" in test]
    print(f"\nThe test run has not ended after {minutes:g} minutes; these tests started and never ended:", file=sys.stderr)
    for test in tests or ["(none named: the event stream has no test in flight)"]:
        print("  " + test, file=sys.stderr)
    me = os.getpid()
    for runner in [pid for pid in children(script) if pid != me]:
        for test_process in children(runner):
            os.kill(test_process, 9)
        os.kill(runner, 15)


if __name__ == "__main__":
    main()
