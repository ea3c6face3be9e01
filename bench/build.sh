#!/usr/bin/env bash
# bench/build.sh: how long the build takes, and how much one edited declaration rebuilds.
#
#   bench/build.sh [codegen] [full] [edit]      (default: all three, in this order)
#
# codegen  the generator over declarations/ into an empty directory, then again with
#          nothing changed (it must rewrite no file); best of 5 runs each.
# full     a from-scratch build in $BUILD_DIR (default build-bench, emptied first), with
#          CUDA when the toolkit is found and no compiler launcher, so no cache helps.
# edit     in $BUILD_DIR, brought up to date (configured and built first if need be):
#          adds an op (the README's square), then edits one declaration at a time (exp's
#          expression, exp's doc, sum's doc),
#          rebuilds, and prints the Ninja steps that ran and the time they took; every
#          edit is undone (and rebuilt) before the next, and on exit.
#
# Extra CMake arguments come from $WICK_CMAKE_ARGS. Times are wall clock and CPU (user +
# sys of every process the build ran): on a shared machine the wall time depends on
# what else runs, the CPU time much less.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-/usr/bin/python3}
BUILD_DIR=${BUILD_DIR:-build-bench}
if [[ -x /usr/local/cuda/bin/nvcc && -z ${CUDACXX:-} ]]; then
  export CUDACXX=/usr/local/cuda/bin/nvcc
fi
# shellcheck disable=SC2206  # WICK_CMAKE_ARGS is a list of words
CMAKE_ARGS=(-G Ninja -DPython_EXECUTABLE="$PYTHON" ${WICK_CMAKE_ARGS:-})

LOG=$(mktemp)    # the output of the last timed command
TIMES=$(mktemp)  # what `times` printed
SAVED=$(mktemp)  # the declaration file an edit changed, to put back
EDITED=
cleanup() {
  [[ -z $EDITED ]] || cp "$SAVED" "$EDITED"
  rm -f "$LOG" "$TIMES" "$SAVED"
}
trap cleanup EXIT

# Sets CPU to the user + sys seconds of this shell's finished children: the second line of
# bash's `times`, run in this shell (in a $(...) subshell it would count nothing).
cpu_seconds() {
  times >"$TIMES"
  CPU=$(sed -n 2p "$TIMES" | awk '{ split($1, u, "m"); split($2, s, "m"); printf "%.3f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }')
}

# measure <command...>: runs the command, its output kept in $LOG, and sets WALL and USED
# to the seconds it took, wall clock and CPU.
measure() {
  local start end cpu0
  cpu_seconds
  cpu0=$CPU
  start=$(date +%s.%N)
  "$@" >"$LOG" 2>&1 || { cat "$LOG"; return 1; }
  end=$(date +%s.%N)
  cpu_seconds
  WALL=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
  USED=$(awk -v a="$cpu0" -v b="$CPU" 'BEGIN { printf "%.2f", b - a }')
}

# timed <label> <command...>: measure, then print "<label>: <wall> s wall, <cpu> s CPU".
timed() {
  local label=$1
  shift
  measure "$@"
  echo "$label: $WALL s wall, $USED s CPU"
}

bench_codegen() {
  local out best best_cpu
  out=$(mktemp -d)
  echo "== codegen over declarations/*.yaml (the whole python3 -m codegen process; best of 5)"
  for what in "into an empty directory" "again, nothing changed"; do
    best=
    for _ in 1 2 3 4 5; do
      if [[ $what == into* ]]; then rm -rf "$out" && mkdir "$out"; fi
      measure "$PYTHON" -m codegen --out "$out" --verbose
      if [[ -z $best ]] || awk -v a="$WALL" -v b="$best" 'BEGIN { exit !(a < b) }'; then
        best=$WALL best_cpu=$USED
      fi
    done
    # The generator's own report: "codegen: N declarations, K of M files rewritten in T s (C s CPU)".
    echo "$what: $best s wall, $best_cpu s CPU; the last run said: $(sed -n '1s/^codegen: //p' "$LOG")"
  done
  rm -rf "$out"
}

# The steps of the last build in $LOG, one a line, without their [n/m] counters; less
# CMake's check of its globs, which every build runs.
ninja_steps() {
  grep -E '^\[[0-9]+/[0-9]+\] ' "$LOG" | sed -E 's/^\[[0-9]+\/[0-9]+\] //' | grep -v '^Re-checking globbed' || true
}

# edit <label> <file> <old> <new>: replaces the one occurrence of <old> in <file> by <new> (with
# an empty <old>, appends <new>), rebuilds and reports; then puts the file back and rebuilds again.
edit() {
  local label=$1 file=$2 old=$3 new=$4 steps
  cp "$file" "$SAVED"
  EDITED=$file
  "$PYTHON" -c '
import sys
path, old, new = sys.argv[1:]
text = open(path, encoding="utf-8").read()
if old:
    assert text.count(old) == 1, f"{path} has {text.count(old)} copies of {old!r}, not one"
    text = text.replace(old, new)
else:
    text += new
open(path, "w", encoding="utf-8").write(text)
' "$file" "$old" "$new"
  timed "$label: rebuild" cmake --build "$BUILD_DIR"
  steps=$(ninja_steps)
  echo "  $(grep -c . <<<"$steps") Ninja steps, of which $(grep -c '^Building' <<<"$steps") compile:"
  sed 's/^/    /' <<<"$steps"
  cp "$SAVED" "$file"  # not cp -p: the file must look newer than what was generated from the edit
  EDITED=
  cmake --build "$BUILD_DIR" >/dev/null
}

# The op of the README's worked example.
SQUARE='
- name: square
  signatures:
    - (Tensor self) -> Tensor
  variants: [method, function]
  inplace: true
  out: true
  pointwise: self * self
  dtypes: [uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64]
  derivatives:
    self: 2 * grad * self
  doc: The square of each element of ``self``.
  numpy: self * self
'

bench_edit() {
  echo "== one edited declaration, rebuilt in $BUILD_DIR"
  [[ -f $BUILD_DIR/build.ninja ]] || cmake -S . -B "$BUILD_DIR" "${CMAKE_ARGS[@]}" >/dev/null
  cmake --build "$BUILD_DIR" >/dev/null
  timed "nothing changed: rebuild" cmake --build "$BUILD_DIR"
  echo "  $(ninja_steps | grep -c .) Ninja steps"
  edit "adding square (the README's example)" declarations/pointwise.yaml "" "$SQUARE"
  edit "exp's expression" declarations/pointwise.yaml "pointwise: exp(self)" "pointwise: exp(self * 1)"
  edit "exp's doc" declarations/pointwise.yaml "The exponential of each element" \
       "The exponential (e**x) of each element"
  edit "sum's doc" declarations/reductions.yaml "The sum of all elements" "The sum of every element"
}

bench_full() {
  echo "== full build from scratch in $BUILD_DIR ($(nproc) cores; CUDA compiler: ${CUDACXX:-none})"
  rm -rf "$BUILD_DIR"
  timed "configure" cmake -S . -B "$BUILD_DIR" "${CMAKE_ARGS[@]}"
  grep -E '^(WICK_CUDA|CMAKE_CUDA_ARCHITECTURES|CMAKE_[A-Z]+_COMPILER_LAUNCHER)[:=]' "$BUILD_DIR/CMakeCache.txt" |
    sed 's/^/  /'
  timed "build" cmake --build "$BUILD_DIR"
  echo "  $(ninja_steps | grep -c .) Ninja steps; the slowest (wall s, from .ninja_log):"
  awk 'NR > 1 { printf "    %6.1f  %s\n", ($2 - $1) / 1000, $4 }' "$BUILD_DIR/.ninja_log" | sort -rn | head -8
}

steps=("$@")
((${#steps[@]})) || steps=(codegen full edit)
echo "bench/build.sh on $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
for step in "${steps[@]}"; do
  case $step in
    codegen) bench_codegen ;;
    edit) bench_edit ;;
    full) bench_full ;;
    *) echo "bench/build.sh: unknown step '$step' (codegen, full, edit)" >&2; exit 2 ;;
  esac
done
