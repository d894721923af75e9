#!/bin/sh
# Installs journal from this folder where `make install` puts it, with nothing but a shell and
# coreutils: ./install.sh [PREFIX=~/.local]. The programs and their manual pages go under PREFIX; the
# systemd user unit and the shell completions go where the user's own are kept, as make install does.
set -eu
for argument in "$@"; do
    case $argument in
        PREFIX=*) PREFIX=${argument#PREFIX=} ;;
        *) echo "usage: ./install.sh [PREFIX=folder]   (default: ~/.local)" >&2; exit 64 ;;
    esac
done
[ -n "${HOME:-}" ] || { echo "install.sh: HOME is not set" >&2; exit 78; }
PREFIX=${PREFIX:-$HOME/.local}
here=$(cd "$(dirname "$0")" && pwd)
BINDIR=$PREFIX/bin
DOCDIR=$PREFIX/share/doc/journal
MANDIR=$PREFIX/share/man/man1
UNITDIR=${UNITDIR:-${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user}
DATADIR=${DATADIR:-${XDG_DATA_HOME:-$HOME/.local/share}}
FISHDIR=${FISHDIR:-${XDG_CONFIG_HOME:-$HOME/.config}/fish/completions}
# The unit first: a PREFIX it cannot name (relative, or one systemd starts no program from) is
# refused before anything is written.
unit=$(sh "$here/systemd/write-unit.sh" "$BINDIR" "$DOCDIR")

install -d "$BINDIR" "$DOCDIR" "$UNITDIR" "$MANDIR" "$DATADIR/bash-completion/completions" "$DATADIR/zsh/site-functions" "$FISHDIR"
install -m 0644 "$here"/share/man/man1/*.1 "$MANDIR/"
install -m 0755 "$here/bin/journal" "$here/bin/journal-syncd" "$BINDIR/"
# An earlier install had the importer as a program of its own: it goes.
rm -f "$BINDIR/journal-import"
install -m 0644 "$here/README.md" "$here/LICENSE" "$DOCDIR/"
printf '%s\n' "$unit" > "$UNITDIR/journal-sync.service"
install -m 0644 "$here/completions/journal.bash" "$DATADIR/bash-completion/completions/journal"
install -m 0644 "$here/completions/_journal" "$DATADIR/zsh/site-functions/_journal"
install -m 0644 "$here/completions/journal.fish" "$FISHDIR/journal.fish"

echo "Installed journal and journal-syncd into $BINDIR, their manual pages into $MANDIR (man journal),"
echo "the journal-sync user service into $UNITDIR,"
echo "and completions for bash, zsh (add $DATADIR/zsh/site-functions to fpath) and fish."
case ":$PATH:" in *":$BINDIR:"*) ;; *) echo "Add $BINDIR to your PATH to run it as 'journal'." ;; esac
# A daemon already running keeps the old binary until restarted.
systemctl --user try-restart journal-sync >/dev/null 2>&1 || true
echo "To sync in the background (after journal sync init):"
echo "  systemctl --user daemon-reload && systemctl --user enable --now journal-sync"
