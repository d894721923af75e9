# Sourced by bench.sh and postgres.sh. `failed_part NAME STATUS`: a part of the benchmark that exited
# non-zero counts as a failure and says so. A budget it missed it printed already; a command of it that
# failed under `set -e` printed nothing, and `make bench` failed with every line saying ok.
failed_part() {
    echo "$1 exited with status $2" >&2
    failures=$((failures + 1))
}

# And such a command names itself.
trap 'status=$?; [[ $BASH_COMMAND == exit* ]] || echo "${0##*/}: line $LINENO: status $status from: $BASH_COMMAND" >&2' ERR
