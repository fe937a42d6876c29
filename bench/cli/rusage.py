#!/usr/bin/env python3
# Runs one command per input line (a JSON array: argv) and prints one JSON line
# per run: wall ms, CPU ms (user + system, from wait4, microsecond precision)
# and peak RSS in KiB (ru_maxrss: the child's VmHWM), plus the exit code.
# bench/cli/run.mjs drives it, so its own start-up is not in any figure.
import json, os, sys, time

for line in sys.stdin:
    argv = json.loads(line)
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            fd = os.open(os.devnull, os.O_RDWR)
            os.dup2(fd, 0); os.dup2(fd, 1); os.dup2(fd, 2)
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    wall = (time.monotonic() - t0) * 1000
    code = os.waitstatus_to_exitcode(status)
    print(json.dumps({"wall": wall, "cpu": (ru.ru_utime + ru.ru_stime) * 1000, "rss": ru.ru_maxrss, "code": code}), flush=True)
