#define _GNU_SOURCE
#include "CLinux.h"

#include <fcntl.h>
#include <stdio.h>

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
