/* The least a BlueZ client can do: connect to the bus given, add the match rule for BlueZ's
 * PropertiesChanged signals, and count them, reading nothing else. The benchmark's yardstick for the daemon.
 *
 *   bare_receiver ADDRESS COUNT
 *
 * Prints "ready" once the rule is in place, then "received COUNT last_ns cpu_ns" when the COUNTth signal is
 * in: the CLOCK_MONOTONIC time it arrived and the CPU time (user + system) spent since "ready". */
#include <dbus/dbus.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static long long cpu_ns(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return ((long long)usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000000LL
        + ((long long)usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1000LL;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s ADDRESS COUNT\n", argv[0]);
        return 2;
    }
    long wanted = atol(argv[2]);
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *connection = dbus_connection_open_private(argv[1], &error);
    if (!connection || !dbus_bus_register(connection, &error)) {
        fprintf(stderr, "cannot connect: %s\n", error.message);
        return 1;
    }
    /* The rule the daemon's BlueZ client relies on, narrowed to the signal that carries adverts. */
    dbus_bus_add_match(connection,
        "type='signal',sender='org.bluez',interface='org.freedesktop.DBus.Properties',"
        "member='PropertiesChanged',path_namespace='/org/bluez'", &error);
    if (dbus_error_is_set(&error)) {
        fprintf(stderr, "cannot add the match rule: %s\n", error.message);
        return 1;
    }
    long long cpu_start = cpu_ns();
    printf("ready\n");
    fflush(stdout);
    long seen = 0;
    while (seen < wanted && dbus_connection_read_write(connection, -1)) {
        DBusMessage *message;
        while ((message = dbus_connection_pop_message(connection)) != NULL) {
            if (dbus_message_is_signal(message, "org.freedesktop.DBus.Properties", "PropertiesChanged")) seen++;
            dbus_message_unref(message);
        }
    }
    if (seen < wanted) {
        fprintf(stderr, "the bus closed after %ld of %ld signals\n", seen, wanted);
        return 1;
    }
    printf("received %ld %lld %lld\n", seen, now_ns(), cpu_ns() - cpu_start);
    fflush(stdout);
    dbus_connection_close(connection);
    dbus_connection_unref(connection);
    return 0;
}
