#!/usr/bin/env python3
"""`z3` as yosys-smtbmc starts it, in front of the real z3 (warpgen).

z3 4.8.12 (Debian bookworm) takes exponential time to *load* a nullary
`(define-fun NAME () SORT BODY)` whose body nests `ite`s, which is what
`yosys-smtbmc --unroll` sends for every signal of every time step: on the
units' models it was still loading step 0 after minutes. The same term as
`(declare-fun NAME () SORT)` plus `(assert (= NAME BODY))` loads at once.
That rewrite is equisatisfiable and gives NAME the same value in every
model, so the checks' answers do not change.

One more step keeps `get-value` working: definitions smtbmc sends after a
`(check-sat)` (the terms of a counterexample it is about to read), once
rewritten to assertions, discard z3's model ("model is not available"), so
the filter re-runs `(check-sat)` before the next `get-value` and hides that
extra answer from smtbmc. The real solver is `$WARPGEN_Z3` (set by warpgen).
"""
import os
import subprocess
import sys
import threading

DEFINE = b"(define-fun "


def sort_end(s, i):
    """Index just past the sort that starts at s[i]."""
    if s[i:i + 1] != b"(":
        return s.find(b" ", i)
    depth, j = 0, i
    while True:
        c = s[j:j + 1]
        if c == b"(":
            depth += 1
        elif c == b")":
            depth -= 1
            if depth == 0:
                return j + 1
        elif c == b"|":
            j = s.index(b"|", j + 1)
        j += 1


def rewrite(line):
    """The declare-fun + assert form of a nullary define-fun, else None."""
    st = line.strip()
    if not (st.startswith(DEFINE) and st.endswith(b")")):
        return None
    i = len(DEFINE)
    j = st.index(b"|", i + 1) + 1 if st[i:i + 1] == b"|" else st.index(b" ", i)
    name = st[i:j]
    if not st[j:].startswith(b" () "):
        return None
    k = j + 4
    e = sort_end(st, k)
    sort, body = st[k:e], st[e:-1].strip()
    return (b"(declare-fun " + name + b" () " + sort + b")\n(assert (= "
            + name + b" " + body + b"))\n")


def main():
    z3 = os.environ.get("WARPGEN_Z3", "/usr/bin/z3")
    p = subprocess.Popen([z3] + sys.argv[1:], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE)
    swallow = [0]
    lock = threading.Lock()

    def answers():
        out = sys.stdout.buffer
        for line in p.stdout:
            with lock:
                if swallow[0] > 0 and line.strip() in (b"sat", b"unsat", b"unknown"):
                    swallow[0] -= 1
                    continue
            out.write(line)
            out.flush()
        # smtbmc waits for its solver to exit: leave as soon as z3 does.
        os._exit(p.wait())

    threading.Thread(target=answers, daemon=True).start()
    after_check = stale = False
    try:
        for line in sys.stdin.buffer:
            st = line.lstrip()
            if st.startswith(b"(check-sat"):
                after_check, stale = True, False
            elif st.startswith((b"(assert", b"(push", b"(pop")):
                after_check = False
            elif st.startswith(b"(get-"):
                if after_check and stale:
                    with lock:
                        swallow[0] += 1
                    p.stdin.write(b"(check-sat)\n")
                    stale = False
            else:
                new = rewrite(line)
                if new is not None:
                    stale = stale or after_check
                    line = new
            p.stdin.write(line)
            p.stdin.flush()
    except BrokenPipeError:
        pass
    try:
        p.stdin.close()
    except BrokenPipeError:
        pass
    sys.exit(p.wait())


if __name__ == "__main__":
    main()
