#!/usr/bin/env bash
# The test command: everything that must stay true, on a fresh machine too.
#
#   scripts/test.sh [cargo test arguments...]
#
# 1. Installs what the tests need when it is missing, and says so in one line:
#    rustc 1.70.0 (rustup, minimal profile) for the judge-build tests, and GNU Go (apt-get;
#    sudo when not root) for the differential test of the Go rules. GAMES_SKIP_RUSTC_1_70=1
#    or GAMES_SKIP_GNUGO=1 skips the tests instead (and they are reported as SKIPPED).
# 2. Runs every test target of the workspace, all of them even when one fails
#    (`cargo test --workspace --no-fail-fast`), doc-tests included.
# 3. Ends with one summary line: `summary: N passed, N failed, N skipped`, after a
#    `SKIPPED <test>: <reason>` line for each skipped test and a FAILED line for each failure.
# Exits with cargo's status. Works from any directory.
set -uo pipefail
if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
    sed -n '2,/^set /p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
    exit 0
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 1

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
gnugo=${GNUGO:-/usr/games/gnugo}

missing=()
if [ -z "${GAMES_SKIP_RUSTC_1_70:-}" ] && ! rustup run 1.70.0 rustc --version >/dev/null 2>&1; then
    missing+=("rustc 1.70.0 (rustup toolchain install 1.70.0 --profile minimal)")
fi
if [ -z "${GAMES_SKIP_GNUGO:-}" ] && ! [ -x "$gnugo" ]; then
    missing+=("GNU Go (${sudo:+sudo }apt-get install gnugo)")
fi
if [ ${#missing[@]} -gt 0 ]; then
    list=$(printf '%s, ' "${missing[@]}")
    echo "test.sh: installing ${list%, }"
    for item in "${missing[@]}"; do
        case "$item" in
            rustc*)
                # A half-installed toolchain (an interrupted install) would count as present.
                rustup toolchain uninstall 1.70.0 >/dev/null 2>&1
                rustup toolchain install 1.70.0 --profile minimal >/dev/null 2>&1 ||
                    { echo "test.sh: could not install rustc 1.70.0 with rustup" >&2; exit 1; }
                ;;
            GNU*)
                { $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
                    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --reinstall gnugo; } >/dev/null 2>&1 ||
                    { echo "test.sh: could not install gnugo with apt-get" >&2; exit 1; }
                ;;
        esac
    done
    if [ -z "${GAMES_SKIP_GNUGO:-}" ] && ! [ -x "$gnugo" ]; then
        echo "test.sh: gnugo was installed but $gnugo is missing (set GNUGO=/path/to/gnugo)" >&2
        exit 1
    fi
fi

mkdir -p target
rm -rf target/test-skips
log=target/test.log
start=$(date +%s)
cargo test --workspace --no-fail-fast "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# Each test binary ends with `test result: ok. P passed; F failed; I ignored; ...`.
read -r passed failed ignored < <(awk '
    /^test result:/ {
        for (i = 1; i <= NF; i++) {
            if ($(i+1) ~ /^passed/) p += $i
            if ($(i+1) ~ /^failed/) f += $i
            if ($(i+1) ~ /^ignored/) g += $i
        }
    }
    END { print p + 0, f + 0, g + 0 }' "$log")
skipped=0
if [ -d target/test-skips ]; then
    for note in target/test-skips/*; do
        [ -e "$note" ] || continue
        echo "SKIPPED $(basename "$note"): $(cat "$note")"
        skipped=$((skipped + 1))
    done
fi
# A skipped test returns early and so counts as passed in cargo's lines: count it once.
passed=$((passed - skipped))
skipped=$((skipped + ignored))
grep -E '^test .* FAILED$' "$log" | sed 's/^test /FAILED /; s/ \.\.\. FAILED$//' || true
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
    echo "test.sh: cargo test failed before running every test (a build error?): see $log"
    failed=1
fi
echo "($(($(date +%s) - start)) s; full log in $log)"
echo "summary: $passed passed, $failed failed, $skipped skipped"
exit "$status"
