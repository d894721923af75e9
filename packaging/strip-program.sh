#!/bin/sh
# strip-program.sh PROGRAM COPY: COPY is PROGRAM without its debug sections and the symbols it does not
# need (and the compilers' .comment notes), as every install has it (make install, the tarball, the
# package); what the debug tarball keeps.
set -eu
objcopy --strip-debug --strip-unneeded --remove-section=.comment "$1" "$2"
