#!/usr/bin/env bash
# The suite's passes side by side (`make test`: lint and the three test passes; `make test-slow`: the two slow
# ones), each with its own temporary folder, default cache and range of server ports, their output printed one after
# the other once all are done, with the slowest tests of each. Usage: tests/passes.sh PYTHON PASS...  (PASS: lint, real, dense, fast)
#
# real   the real release's tests (`slow and real`: its session fixtures, the real first launch, built once)
# dense  the MiniLM first launch on CoREB-mini and the browser tests (`slow and not real`), built once
# lint   ruff and mypy, at nice 10
# fast   everything else (`not slow`), on both cores at a lower priority (nice 10): it takes the CPU the slow passes
#        leave (their servers, browsers and waits), then both cores once they are done; the slow passes, which
#        are long chains of one-thread work, are never slowed down by it.
# One torch thread per process: two passes of two spinning OpenMP threads each on 2 cores made a reranker training
# 12x slower (449 s against 37.5 s) than one thread each.
set -u
py=$1; shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
common=(-q -p no:cacheprovider --durations=15 tests)
for pass in "$@"; do
  case $pass in
    real)  cmd=(env COREB_TEST_PORTS=20000-20999 "$py" -m pytest "${common[@]}" -m "slow and real") ;;
    dense) cmd=(env COREB_TEST_PORTS=21000-21999 "$py" -m pytest "${common[@]}" -m "slow and not real") ;;
    fast)  cmd=(nice -n 10 "$py" -m pytest "${common[@]}" -m "not slow" -n 2 --dist worksteal) ;;
    # ruff and mypy (`make lint`) beside the tests, at the fast pass's priority: mypy is one core for about 18 s,
    # which before the passes left the other core idle (the extra --basetemp argument is ignored)
    lint)  cmd=(nice -n 10 bash -c '"$0/ruff" check . && "$0/mypy"' "$(dirname "$py")") ;;
    *) echo "tests/passes.sh: unknown pass '$pass' (lint, real, dense, fast)" >&2; exit 2 ;;
  esac
  ( start=$(date +%s)
    TIMEFORMAT="%U+%S"  # the pass's CPU seconds (user + system, its processes and their children)
    { time OMP_NUM_THREADS=1 COREB_CACHE=$tmp/$pass-default-cache "${cmd[@]}" --basetemp="$tmp/$pass" \
        > "$tmp/$pass.log" 2>&1; } 2> "$tmp/$pass.cpu"
    echo $? > "$tmp/$pass.rc"
    cpu=$(tail -1 "$tmp/$pass.cpu" | awk -F+ '{printf "%.0f", $1 + $2}')
    echo "$(( $(date +%s) - start )) s, $cpu CPU s, load $(cut -d' ' -f1-3 /proc/loadavg) at its end" > "$tmp/$pass.time" ) &
done
wait
status=0
for pass in "$@"; do
  echo "=== $pass pass (exit $(cat "$tmp/$pass.rc"), $(cat "$tmp/$pass.time")) ==="
  cat "$tmp/$pass.log"
  [ "$(cat "$tmp/$pass.rc")" = 0 ] || status=1
done
exit $status
