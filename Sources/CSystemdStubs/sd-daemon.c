/* The release daemon links libdbus statically (Package.swift), so that the image need not carry the
   libsystemd that Debian's shared libdbus loads, with libgcrypt, libzstd, liblzma, liblz4, libcap and
   libgpg-error behind it (3.5 MB). libdbus calls libsystemd only to take over listening sockets that
   systemd passes to a D-Bus *server*; the daemon is always a client, so it is told that none were passed. */

#include "CSystemdStubs.h"

#ifdef T2M_STATIC_DBUS

int sd_listen_fds(int unset_environment) {
    (void)unset_environment;
    return 0;
}

int sd_is_socket(int fd, int family, int type, int listening) {
    (void)fd; (void)family; (void)type; (void)listening;
    return 0;
}

#endif
