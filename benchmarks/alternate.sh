#!/usr/bin/env bash
# Side by side: alternate runs of benchmarks/bot.py on two trees (each a checkout with its own
# .venv made by scripts/setup), 10 s apart, ROUNDS rounds of the three figures of the bot's
# targets; one line per run on standard output, each run's whole output under OUT.
#   bash benchmarks/alternate.sh BASE_TREE NEW_TREE [ROUNDS] [OUT]
set -euo pipefail
base=$1 new=$2 rounds=${3:-3} out=${4:-$(mktemp -d)}
mkdir -p "$out"
for round in $(seq 1 "$rounds"); do
    for args in "--tables 100 --moves 4" "--tables 200 --moves 4" \
                "--tables 100 --moves 4 --ai-level hard --ai-delay 1.0"; do
        for tree in "$base" "$new"; do
            log="$out/$round-$(basename "$tree")-$(echo "$args" | tr -d ' -').log"
            # (a run over the benchmark's own target exits 1: the series goes on)
            (cd "$tree" && .venv/bin/python benchmarks/bot.py $args >"$log" 2>&1) || true
            first=$(grep -o "first response request: .*" "$log" | grep -o "p99 [0-9.]* ms" || true)
            hard=$(grep -o "hard computers: .*applied p50 [0-9.]* s, p99 [0-9.]* s" "$log" \
                   | grep -o "p99 [0-9.]* s" || true)
            echo "$round $(git -C "$tree" rev-parse --short HEAD) $args: first response $first" \
                 "${hard:+hard applied $hard}"
            sleep 10
        done
    done
done
