#ifndef JOURNAL_CLINUX_H
#define JOURNAL_CLINUX_H

// Linux interfaces the Glibc module does not bring to Swift: what the sync daemon's event loop
// waits on (epoll) and its timers (timerfd); a signal handler, which must be C; renameat2, pipe2 and
// a spawned child's closefrom.
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <signal.h>
#include <spawn.h>

// EPOLLIN is an enum constant in C; as an int it crosses to Swift without casts.
static inline unsigned int journal_epollin(void) { return EPOLLIN; }

// Handles `signal` by writing its number, as one byte, to `descriptor` (a pipe's write end, which
// the event loop watches): all a signal handler may safely do. Returns 0, or -1 with errno set.
int journal_forward_signal(int signal, int descriptor);

// renameat2(..., RENAME_NOREPLACE), which the Glibc module does not bring: moves a file in one step,
// whoever owns it, and never over a file already there (EEXIST). Some file systems refuse the flag
// (EINVAL). Returns 0, or -1 with errno set.
int journal_rename_noreplace(int from_folder, const char *from, int to_folder, const char *to);

// pipe2, which the Glibc module does not bring: a pipe whose ends are made with `flags` (O_CLOEXEC,
// O_NONBLOCK) in one step, so no process started meanwhile by another thread inherits them.
// Returns 0, or -1 with errno set.
int journal_pipe(int ends[2], int flags);

// Lets go of the pages of this program's own read-only segments (its code) that are mapped now: they
// stay in the page cache, and what runs again is mapped again from there, at a minor fault. For a
// long-running process once its start-up is done: the code only start-up ran is no longer held.
// Returns the bytes of the segments, or -1 with errno set.
long journal_release_code_pages(void);

// The columns of the terminal `descriptor` is (TIOCGWINSZ, an ioctl, which is variadic and so not
// callable from Swift); 0 when it is no terminal or does not say.
int journal_terminal_columns(int descriptor);

// The columns `scalar` takes on a terminal (wcwidth), read under glibc's built-in C.UTF-8 locale
// whatever the process's (under "C", wcwidth knows nothing beyond ASCII); -1 for one that is not
// printable. The locale is taken up by the calling thread at its first call.
int journal_display_width(unsigned int scalar);

// posix_spawn_file_actions_addclosefrom_np, which the Glibc module does not bring (it is a GNU
// extension): the child closes every descriptor from `from` up before it runs the program, so that it
// inherits none another thread opened without close-on-exec. Returns 0 or an error number.
int journal_spawn_close_from(posix_spawn_file_actions_t *actions, int from);

// Ctrl-C during an import: until its transaction begins to commit, the process ends at once (exit
// 130), saying that nothing was imported, which is so: the transaction never committed leaves the
// journal as it was. From `journal_import_commit_begins` on, an interrupt is left unanswered and the
// import ends as it would have. Async-signal-safe: a flag, write(2) and _exit(2).
void journal_import_interrupt_catch(void);
void journal_import_commit_begins(void);

#endif
