#!/usr/bin/env bash
# Re-measures the README's results table, one command after another, at the checked-out commit:
#   bash docs/measure.sh > docs/measurements.md
# Strength figures are deterministic for their seeds (the same tables on any run); times and the CPU-time
# lines depend on the machine and its load, which each command's last line gives.
set -u
export COLUMNS=80
SEERS=${SEERS:-.venv/bin/seers}
echo "# Measurements"
echo
echo "Written by \`bash docs/measure.sh\` at commit $(git rev-parse --short HEAD), $(date -u +%Y-%m-%d),"
echo "on $(nproc) cores; load average at the start $(cut -d' ' -f1-3 /proc/loadavg)."
run() {
  echo; echo '```'; echo "\$ seers $*"; local t0; t0=$(date +%s)
  "$SEERS" "$@" 2>&1 | grep -v "^tournament: \|^compiling"
  echo "[$(( $(date +%s) - t0 )) s, load average $(cut -d' ' -f1-3 /proc/loadavg)]"; echo '```'
}
run eval --agents learned,heuristic,heuristic,heuristic --games 200 --seed 7 --baseline heuristic --seat-baseline heuristic
run eval --agents learned,heuristic,heuristic --games 200 --seed 7 --baseline heuristic --seat-baseline heuristic
run eval --agents learned,heuristic --games 200 --seed 7 --baseline heuristic --seat-baseline heuristic
run eval --agents learned,heuristic,heuristic,heuristic,heuristic --games 200 --seed 7 --baseline heuristic --seat-baseline heuristic
run eval --game scout --agents heuristic,greedy --games 100 --seed 7 --baseline greedy
run eval --game scout --agents heuristic,greedy,random --games 100 --seed 7 --baseline greedy
run eval --game scout --agents heuristic,greedy,random,random --games 100 --seed 7 --baseline greedy
run eval --game scout --agents heuristic,greedy,random,random,random --games 100 --seed 7 --baseline greedy
run eval --agents learned,ismcts:30,heuristic,heuristic --games 40 --seed 11 --baseline ismcts:30
run eval --game seals --agents heuristic,greedy --games 400 --seed 7 --baseline greedy
run eval --game seals --agents heuristic,greedy,random --games 400 --seed 7 --baseline greedy
run eval --game seals --agents heuristic,greedy,random,random --games 400 --seed 7 --baseline greedy
run eval --game seals --agents greedy,random --games 400 --seed 7 --baseline random
run eval --game seals --agents learned,heuristic --games 400 --seed 7 --baseline heuristic --seat-baseline heuristic
run eval --game seals --agents learned,heuristic,heuristic --games 400 --seed 7 --baseline heuristic --seat-baseline heuristic
run eval --game seals --agents learned,heuristic,heuristic,heuristic --games 400 --seed 7 --baseline heuristic --seat-baseline heuristic
run train --name readme_default --force
