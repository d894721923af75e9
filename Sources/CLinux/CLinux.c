#define _GNU_SOURCE
#include "CLinux.h"

#include <fcntl.h>
#include <signal.h>
#include <locale.h>
#include <sys/ioctl.h>
#include <wchar.h>
#include <link.h>
#include <stdio.h>
#include <sys/mman.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

// One pipe for every forwarded signal; set before any handler is installed.
static volatile int journal_signal_pipe = -1;

static void journal_signal_handler(int signal) {
    int saved = errno;
    unsigned char number = (unsigned char)signal;
    // A full pipe drops the signal: one already waiting asks the same.
    ssize_t written = write(journal_signal_pipe, &number, 1);
    (void)written;
    errno = saved;
}

int journal_forward_signal(int signal, int descriptor) {
    journal_signal_pipe = descriptor;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = journal_signal_handler;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    return sigaction(signal, &action, 0);
}

int journal_rename_noreplace(int from_folder, const char *from, int to_folder, const char *to) {
    return renameat2(from_folder, from, to_folder, to, RENAME_NOREPLACE);
}

// The main program's read-only loadable segments, page-aligned inward so that no page shared with a
// writable segment (whose private pages hold what the program wrote) is ever let go.
static int journal_release_segments(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    long *released = data;
    long page = sysconf(_SC_PAGESIZE);
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type != PT_LOAD || (header->p_flags & PF_W)) continue;
        uintptr_t start = info->dlpi_addr + header->p_vaddr;
        uintptr_t end = start + header->p_memsz;
        start = (start + page - 1) / page * page;
        end = end / page * page;
        if (end <= start) continue;
        if (madvise((void *)start, end - start, MADV_DONTNEED) != 0) {
            *released = -1;
            return 1;
        }
        *released += (long)(end - start);
    }
    // The first object is the main program.
    return 1;
}

long journal_release_code_pages(void) {
    long released = 0;
    dl_iterate_phdr(journal_release_segments, &released);
    return released;
}

int journal_pipe(int ends[2], int flags) {
    return pipe2(ends, flags);
}

int journal_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int journal_terminal_columns(int descriptor) {
    struct winsize size;
    if (ioctl(descriptor, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_col;
}

int journal_display_width(unsigned int scalar) {
    // 0 not yet tried, 1 taken up, -1 not there (a C library without C.UTF-8).
    static __thread int locale_state;
    if (locale_state == 0) {
        locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
        if (utf8 != (locale_t)0) uselocale(utf8);
        locale_state = utf8 != (locale_t)0 ? 1 : -1;
    }
    // Without the locale wcwidth knows nothing beyond ASCII: one column each is the better guess.
    if (locale_state < 0) return scalar < 0x20 || (scalar >= 0x7F && scalar < 0xA0) ? -1 : 1;
    return wcwidth((wchar_t)scalar);
}

static volatile sig_atomic_t journal_import_committing = 0;

static void journal_import_interrupted(int signal_number) {
    (void)signal_number;
    if (journal_import_committing) return;
    static const char message[] = "\njournal: interrupted: nothing imported.\n";
    ssize_t written = write(STDERR_FILENO, message, sizeof message - 1);
    (void)written;
    _exit(130);
}

void journal_import_interrupt_catch(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = journal_import_interrupted;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
}

void journal_import_commit_begins(void) { journal_import_committing = 1; }
