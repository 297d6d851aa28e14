# SPDX-License-Identifier: MIT
# Shared by the scripts: project root, build helpers. Sourced, not run.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)

# configure_build DIR [cmake args...]: configures once (Ninja, ccache) and builds.
configure_build() {
  local dir=$1
  shift
  if [ ! -f "$dir/build.ninja" ]; then
    cmake -S "$root" -B "$dir" -G Ninja "$@" >/dev/null
  fi
  cmake --build "$dir" -j "$jobs"
}

# stage NAME COMMAND...: runs COMMAND and, when VTXSCOPE_STAGE_TIMES names a file, appends
# "NAME<tab>SECONDS<tab>EXIT" to it (.ci/run and scripts/test print the table at the end).
# Returns COMMAND's exit status. COMMAND runs where `set -e` does not apply (bash ignores it in
# a `||` context), so a function passed here chains its steps with && itself.
stage() {
  local name=$1
  shift
  local start rc=0
  start=$(date +%s)
  echo "== stage $name: $*" >&2
  "$@" || rc=$?
  if [ -n "${VTXSCOPE_STAGE_TIMES:-}" ]; then
    printf '%s\t%d\t%d\n' "$name" $(($(date +%s) - start)) "$rc" >>"$VTXSCOPE_STAGE_TIMES"
  fi
  return "$rc"
}

# print_stage_times FILE [BUDGET_MINUTES]: the stage table of FILE, its total, and the budget.
print_stage_times() {
  local file=$1 budget=${2:-}
  [ -s "$file" ] || return 0
  echo
  echo "Stage times:"
  awk -F '\t' -v budget="$budget" '
    { printf "  %-22s %4d:%02d  %s\n", $1, $2 / 60, $2 % 60, ($3 == 0 ? "ok" : "FAILED (exit " $3 ")"); total += $2 }
    END {
      printf "  %-22s %4d:%02d", "total", total / 60, total % 60
      if (budget != "") printf "  (budget %d:00%s)", budget, (total > budget * 60 ? ", OVER BUDGET" : "")
      printf "\n"
    }' "$file"
}

# preset_configure PRESET [cmake -D args...]: configures build/PRESET with the preset (again
# when a cache from an older layout of the preset is there).
preset_configure() {
  local preset=$1
  shift
  (cd "$root" && cmake --preset "$preset" "$@" >/dev/null)
}

# preset_build PRESET [targets...]: builds build/PRESET (every target, or the ones named).
preset_build() {
  local preset=$1
  shift
  if [ $# -gt 0 ]; then
    cmake --build "$root/build/$preset" -j "$jobs" --target "$@"
  else
    cmake --build "$root/build/$preset" -j "$jobs"
  fi
}

# The dev build treats warnings as errors in CI (CI=true); elsewhere it does not, so a new
# compiler's new warning does not stop someone's local build.
dev_werror() {
  if [ "${CI:-}" = "true" ]; then echo ON; else echo OFF; fi
}

# The sanitizer runtime options of the asan and tsan passes (CMakePresets.json's test presets
# carry the same).
asan_env=(ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
          "LSAN_OPTIONS=suppressions=$root/tests/lsan.supp:print_suppressions=0")
tsan_env=("TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:die_after_fork=0:suppressions=$root/tests/tsan.supp")

# The builds and test runs of scripts/test, shared with scripts/flake-hunt.
# CI's dev build keeps line tables only (-g1: files, lines and functions in backtraces, no
# variable locations): it compiles 15-25 % faster than -g (measured per unit, docs/TESTING.md),
# and nothing in CI runs a debugger. Elsewhere the preset's -g stays, for gdb.
dev_debug_flags() {
  if [ "${CI:-}" = "true" ]; then echo "-O2 -g1 -DNDEBUG"; else echo "-O2 -g -DNDEBUG"; fi
}
build_dev() {
  preset_configure dev -DVTXSCOPE_WERROR="$(dev_werror)" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$(dev_debug_flags)" &&
    preset_build dev
}
build_asan() { preset_configure asan && preset_build asan; }
# Only the tests labelled tsan (tests/CMakeLists.txt's vtx-tsan-tests target).
build_tsan() { preset_configure tsan && preset_build tsan vtx-tsan-tests; }
test_dev() { (cd "$root/build/dev" && ctest --output-on-failure -j "$jobs" "$@"); }
# Every test but the Xvfb smoke test (its timing assertions are meaningless at ASan speed).
test_asan() { (cd "$root/build/asan" && env "${asan_env[@]}" ctest --output-on-failure -j "$jobs" -LE smoke "$@"); }
test_tsan() { (cd "$root/build/tsan" && env "${tsan_env[@]}" ctest --output-on-failure -L '^tsan$' "$@"); }
