#!/bin/sh
# Writes the journal-sync user unit to standard output: journal-sync.service beside this script, its
# daemon in BINDIR and its README in DOCDIR. `make install`, install.sh and the Debian package all
# write the unit with it: ./write-unit.sh BINDIR DOCDIR > journal-sync.service
#
# A path goes into the unit as systemd reads it back (systemd.service(5), "Command lines";
# systemd.unit(5), "Specifiers"; measured with systemd-analyze verify, systemd 252). In ExecStart= the
# program's path is quoted, so a space stays in it; % starts a specifier, so it is written %%; a byte
# beyond ASCII is written \xHH, since systemd ignores a line that is not UTF-8 and the path need not
# be; $ is left alone, as systemd expands variables in the arguments but not in the program's path
# ($$ would stay $$ there). Documentation= takes a URL: its path is percent-encoded, and each % then
# doubled. The paths are put into the template with sed, their \ & and | escaped.
set -eu
# Bytes, not characters: a path need not be UTF-8.
export LC_ALL=C
[ $# = 2 ] || { echo "usage: write-unit.sh BINDIR DOCDIR" >&2; exit 64; }
here=$(cd "$(dirname "$0")" && pwd)
bindir=$1 docdir=$2

refuse() { printf 'write-unit.sh: %s\n' "$*" >&2; exit 64; }
for path in "$bindir" "$docdir"; do
    case $path in /*) ;; *) refuse "PREFIX must be an absolute path: $path is not one" ;; esac
done
# systemd will not start a program whose path holds these, however the path is written: a control
# character (a newline would also end the line and begin another) or a quote or a backslash.
case $bindir in
    *[[:cntrl:]]*) refuse "systemd will not start a program whose path holds a newline or another control character: choose a PREFIX without one" ;;
    *[\"\'\\]*) refuse "systemd will not start a program whose path holds a quote or a backslash, as $bindir does: choose a PREFIX without them" ;;
esac

# $1 written inside an ExecStart= word in double quotes.
quoted_for_exec() {
    rest=$1 written=
    while [ -n "$rest" ]; do
        byte=${rest%"${rest#?}"} rest=${rest#?}
        case $byte in
            %) written=$written%% ;;
            [\ -~]) written=$written$byte ;;
            *) written=$written$(printf '\\x%02x' "'$byte") ;;
        esac
    done
    printf '%s' "$written"
}

# $1 as the path of a file: URL in a unit: percent-encoded (RFC 3986: all but letters, digits, - . _
# ~ and the slashes), each % then written %% for systemd.
url_path_for_unit() {
    rest=$1 written=
    while [ -n "$rest" ]; do
        byte=${rest%"${rest#?}"} rest=${rest#?}
        case $byte in
            [A-Za-z0-9/._~-]) written=$written$byte ;;
            *) written=$written$(printf '%%%%%02X' "'$byte") ;;
        esac
    done
    printf '%s' "$written"
}

# $1 as a sed replacement between | delimiters.
for_sed() { printf '%s\n' "$1" | sed 's/[\\&|]/\\&/g'; }

sed -e "s|@BINDIR@|$(for_sed "$(quoted_for_exec "$bindir")")|g" \
    -e "s|@DOCDIR@|$(for_sed "$(url_path_for_unit "$docdir")")|g" "$here/journal-sync.service"
