#!/usr/bin/env bash
# Runs every solver against its sample cases in testdata/, like an online judge would.
#
#   scripts/check.sh [-t SECONDS] [--bundle] [problem...]
#
# Builds the solvers once (release) — or, with --bundle, the single-file builds of
# scripts/bundle.sh compiled alone with rustc 1.70.0 (as a judge compiles them) — then runs
# each case testdata/<problem>/<case>.in:
#   <case>.out  the expected stdout; exit status 0 expected. Compared like the judges compare:
#               trailing spaces and trailing blank lines are ignored.
#   <case>.err  the expected one-line error on stderr; exit status 1 and empty stdout expected.
# Prints one line per case (AC / WA / RE / TLE and milliseconds), a diff on WA, and a summary;
# exits with status 1 when any case failed. Works from any directory.
set -uo pipefail

usage() {
    echo "usage: $0 [-t SECONDS] [--bundle] [problem...]" >&2
    echo "  -t, --time-limit SECONDS   time limit per case (default 2)" >&2
    echo "  --bundle                   judge the single-file builds (target/bundle/*.rs)" >&2
    exit 2
}

limit=2
bundle=0
problems=()
while [ $# -gt 0 ]; do
    case "$1" in
        --bundle) bundle=1; shift ;;
        -t | --time-limit)
            [ $# -ge 2 ] || usage
            limit=$2
            shift 2
            ;;
        -h | --help) usage ;;
        -*) echo "unknown option $1" >&2; usage ;;
        *) problems+=("$1"); shift ;;
    esac
done
if ! [[ "$limit" =~ ^[0-9]+([.][0-9]+)?$ ]]; then
    echo "time limit must be a number of seconds, not '$limit'" >&2
    exit 2
fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
testdata="$root/testdata"
if [ ${#problems[@]} -eq 0 ]; then
    for dir in "$testdata"/*/; do problems+=("$(basename "$dir")"); done
fi
for p in "${problems[@]}"; do
    if [ ! -d "$testdata/$p" ]; then
        echo "no test data for '$p' (expected $testdata/$p/)" >&2
        exit 2
    fi
done

if [ $bundle -eq 1 ]; then
    echo "bundling ${#problems[@]} solvers (scripts/bundle.sh; builds the bundler first)..." >&2
    "$root/scripts/bundle.sh" "${problems[@]}" >&2 || exit 1
    bindir=$(mktemp -d)
    trap 'rm -rf "$bindir"' EXIT
    if rustup run 1.70.0 rustc --version >/dev/null 2>&1; then
        rustc_cmd=(rustup run 1.70.0 rustc)
    else
        echo "warning: rustc 1.70.0 is not installed (rustup toolchain install 1.70.0 --profile minimal); using $(rustc --version)" >&2
        rustc_cmd=(rustc)
    fi
    i=0
    start=$SECONDS
    for p in "${problems[@]}"; do
        i=$((i + 1))
        echo "compiling the bundle of $p ($i of ${#problems[@]}, $(wc -c < "$root/target/bundle/$p.rs") bytes) with $("${rustc_cmd[@]}" --version | cut -d' ' -f1-2) -O; $((SECONDS - start)) s so far..." >&2
        cp "$root/target/bundle/$p.rs" "$bindir/$p.rs"
        if ! (cd "$bindir" && "${rustc_cmd[@]}" --edition 2021 -O -o "$p" "$p.rs"); then
            echo "the bundle of $p does not compile" >&2
            exit 1
        fi
    done
else
    echo "building solvers (release)..." >&2
    if ! (cd "$root" && cargo build --release --quiet -p solvers --bins); then
        echo "build failed" >&2
        exit 1
    fi
    bindir="${CARGO_TARGET_DIR:-$root/target}/release"
    [[ "$bindir" = /* ]] || bindir="$root/$bindir"
fi

if [ -t 1 ]; then
    green=$'\e[32m' red=$'\e[31m' yellow=$'\e[33m' reset=$'\e[0m'
else
    green='' red='' yellow='' reset=''
fi

work=$(mktemp -d)
trap 'rm -rf "$work"; [ $bundle -eq 0 ] || rm -rf "$bindir"' EXIT

# Strips trailing whitespace from each line and trailing blank lines from the end.
normalize() {
    sed -e 's/[[:space:]]*$//' "$1" | sed -e ':a' -e '/^\n*$/{$d;N;ba' -e '}'
}

# Shows expected and actual side by side around the first differing line.
show_diff() {
    awk -v red="$red" -v reset="$reset" '
        NR == FNR { want[FNR] = $0; nwant = FNR; next }
        { got[FNR] = $0; ngot = FNR }
        END {
            n = nwant > ngot ? nwant : ngot
            first = 0
            for (i = 1; i <= n; i++) {
                if ((i in want) != (i in got) || want[i] != got[i]) { first = i; break }
            }
            if (first == 0) exit
            from = first > 3 ? first - 3 : 1
            to = first + 3 < n ? first + 3 : n
            printf "      %-5s %-30s | %s\n", "line", "expected", "actual"
            for (i = from; i <= to; i++) {
                e = (i in want) ? want[i] : "(missing)"
                a = (i in got) ? got[i] : "(missing)"
                mark = (i == first) ? red ">" : " "
                printf "    %s %-5d %-30s | %s%s\n", mark, i, e, a, (i == first ? reset : "")
            }
            if (to < n) printf "      ... %d more lines\n", n - to
        }' "$1" "$2"
}

passed=0
failed=0
for p in "${problems[@]}"; do
    bin="$bindir/$p"
    if [ ! -x "$bin" ]; then
        echo "${red}no solver binary for '$p' ($bin)${reset}"
        failed=$((failed + 1))
        continue
    fi
    for input in "$testdata/$p"/*.in; do
        [ -e "$input" ] || continue
        case_name="$p/$(basename "${input%.in}")"
        expected_out="${input%.in}.out"
        expected_err="${input%.in}.err"
        start=$(date +%s%N)
        timeout -k 1 "$limit" "$bin" <"$input" >"$work/stdout" 2>"$work/stderr"
        status=$?
        ms=$((($(date +%s%N) - start) / 1000000))
        verdict=AC
        detail=""
        if [ $status -eq 124 ] || [ $status -eq 137 ]; then
            verdict=TLE
        elif [ -f "$expected_out" ]; then
            if [ $status -ne 0 ]; then
                verdict=RE
                detail="exit status $status: $(head -c 300 "$work/stderr")"
            else
                normalize "$expected_out" >"$work/want"
                normalize "$work/stdout" >"$work/got"
                cmp -s "$work/want" "$work/got" || verdict=WA
            fi
        elif [ -f "$expected_err" ]; then
            if [ $status -eq 1 ]; then
                normalize "$expected_err" >"$work/want"
                normalize "$work/stderr" >"$work/got"
                if ! cmp -s "$work/want" "$work/got"; then
                    verdict=WA
                elif [ -s "$work/stdout" ]; then
                    verdict=WA
                    detail="an error exit must leave stdout empty"
                fi
            elif [ $status -eq 0 ]; then
                verdict=WA
                detail="expected an error (exit status 1), the solver accepted the input"
            else
                verdict=RE
                detail="exit status $status (expected 1): $(head -c 300 "$work/stderr")"
            fi
        else
            verdict=RE
            detail="no ${expected_out##*/} or ${expected_err##*/} next to the input"
        fi
        case $verdict in
            AC) colour=$green; passed=$((passed + 1)) ;;
            TLE) colour=$yellow; failed=$((failed + 1)) ;;
            *) colour=$red; failed=$((failed + 1)) ;;
        esac
        printf '%s%-3s%s %6d ms  %s\n' "$colour" "$verdict" "$reset" "$ms" "$case_name"
        [ -z "$detail" ] || echo "    $detail"
        if [ "$verdict" = WA ] && [ -z "$detail" ]; then
            show_diff "$work/want" "$work/got"
        fi
    done
done

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
