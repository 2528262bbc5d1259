#ifndef C_SIM_PTY_H
#define C_SIM_PTY_H

#include <stddef.h>

/// Opens a pseudo-terminal master (non-blocking, close-on-exec), unlocks its slave and writes the slave's
/// path into `name`. Returns the master's descriptor, or -1 with errno set.
///
/// Why C: posix_openpt, grantpt, unlockpt and ptsname_r are declared only under _XOPEN_SOURCE, which Swift's
/// Glibc module is not built with, so Swift cannot see them.
int CSimPTY_open_master(char *name, size_t size);

#endif
