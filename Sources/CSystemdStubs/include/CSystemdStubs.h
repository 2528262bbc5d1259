/* The two libsystemd calls a static libdbus makes (sd-daemon.c answers them). */
int sd_listen_fds(int unset_environment);
int sd_is_socket(int fd, int family, int type, int listening);
