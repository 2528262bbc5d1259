/* A BlueZ stand-in that outruns its receivers: owns org.bluez on the bus given, answers GetManagedObjects
 * with adapter hci0 and DEVICES devices, and on SIGUSR1 sends COUNT PropertiesChanged signals on
 * org.bluez.Device1 round-robin over the devices, marshalled beforehand and written in large chunks, then
 * prints its own rate. Every device's last signal carries a value no earlier one has (RSSI -40 or
 * 40.00 °C), so a receiver can tell when it has the final state.
 *
 *   bluez_sender ADDRESS DEVICES COUNT rssi|pvvx|mibeacon
 *
 * rssi: RSSI only, devices named "Bench NNN". pvvx: RSSI and the pvvx thermometer ServiceData (181A),
 * devices named "ATC_NNNNNN". mibeacon: RSSI and an encrypted MiBeacon v5 temperature (FE95, AES-128-CCM with
 * the key 00112233445566778899aabbccddeeff for every device, sealed with libcrypto while the burst is
 * marshalled), devices named "LYWSD03MMC". Prints "ready" once it owns the name and the burst is marshalled, then
 * "sent COUNT start_ns end_ns" (CLOCK_MONOTONIC) once the burst's last byte is in the bus socket: its rate
 * is how fast the bus takes the signals in. Serves method calls until killed.
 *
 *   bluez_sender ADDRESS DEVICES paced RATE SECONDS
 *
 * Sustained load instead: on SIGUSR1, RATE pvvx adverts a second for SECONDS, paced every millisecond, from
 * DEVICES thermometers whose values stay at 21.00 degC (RSSI cycling -60 to -79). The first PROBES of them
 * advertise only at the start and when probed; one more device, "BTHome button", is a BTHome v2 button. Every
 * 250 ms a probe goes out in the feed, alternately a button press (one BTHome advert with a new packet id) and
 * a new temperature of one probe thermometer; each prints "probe b SEQ NS" or "probe v SEQ NS INDEX CENTIDEGREES"
 * (CLOCK_MONOTONIC, when written). At the end: "sent COUNT start_ns end_ns". */
#include <dbus/dbus.h>
#include <errno.h>
#include <openssl/evp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SERVICE_181A "0000181a-0000-1000-8000-00805f9b34fb"
#define SERVICE_FE95 "0000fe95-0000-1000-8000-00805f9b34fb"
#define SERVICE_FCD2 "0000fcd2-0000-1000-8000-00805f9b34fb"
#define PROBES 10

static volatile sig_atomic_t go = 0;
static int devices, count, pvvx, mibeacon, paced, rate, seconds;

static void on_usr1(int sig) { (void)sig; go = 1; }

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void address_of(int index, unsigned char mac[6]) {
    unsigned char base[6] = {0xA4, 0xC1, 0x38, 0x00, (unsigned char)(index >> 8), (unsigned char)(index & 0xFF)};
    memcpy(mac, base, 6);
}

static void variant_basic(DBusMessageIter *parent, int type, const char *signature, const void *value) {
    DBusMessageIter variant;
    dbus_message_iter_open_container(parent, DBUS_TYPE_VARIANT, signature, &variant);
    dbus_message_iter_append_basic(&variant, type, value);
    dbus_message_iter_close_container(parent, &variant);
}

static void entry_basic(DBusMessageIter *dict, const char *key, int type, const char *signature, const void *value) {
    DBusMessageIter entry;
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    variant_basic(&entry, type, signature, value);
    dbus_message_iter_close_container(dict, &entry);
}

/* A MiBeacon v5 frame (23 bytes) of the LYWSD03MMC (product 055B) at `index`: frame control 5858, product id,
 * frame counter, MAC reversed, then object 1004 (temperature s16 x0.1 degC) sealed with AES-128-CCM (nonce: MAC
 * reversed, product id, frame counter, 3-byte extended counter; associated data 11; 4-byte tag), the extended
 * counter and the tag. */
static void mibeacon_frame(int index, int decidegrees, unsigned counter, unsigned char frame[23]) {
    static const unsigned char key[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                          0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF};
    unsigned char mac[6], nonce[12], objects[5] = {0x04, 0x10, 0x02, decidegrees & 0xFF, (decidegrees >> 8) & 0xFF};
    unsigned char extended[3] = {(counter >> 8) & 0xFF, (counter >> 16) & 0xFF, (counter >> 24) & 0xFF};
    address_of(index, mac);
    frame[0] = 0x58; frame[1] = 0x58; frame[2] = 0x5B; frame[3] = 0x05; frame[4] = counter & 0xFF;
    for (int i = 0; i < 6; i++) frame[5 + i] = mac[5 - i];
    memcpy(nonce, frame + 5, 6);
    memcpy(nonce + 6, frame + 2, 3);
    memcpy(nonce + 9, extended, 3);
    EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new();
    int length = 0;
    unsigned char aad = 0x11;
    if (!context || EVP_EncryptInit_ex(context, EVP_aes_128_ccm(), NULL, NULL, NULL) != 1
        || EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) != 1
        || EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, 4, NULL) != 1
        || EVP_EncryptInit_ex(context, NULL, NULL, key, nonce) != 1
        || EVP_EncryptUpdate(context, NULL, &length, NULL, 5) != 1
        || EVP_EncryptUpdate(context, NULL, &length, &aad, 1) != 1
        || EVP_EncryptUpdate(context, frame + 11, &length, objects, 5) != 1
        || EVP_EncryptFinal_ex(context, frame + 16, &length) != 1
        || EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, 4, frame + 19) != 1)
        abort();
    memcpy(frame + 16, extended, 3);
    EVP_CIPHER_CTX_free(context);
}

/* ServiceData as BlueZ sends it: a{sv}, the 128-bit UUID to a variant holding ay. */
static void service_data(DBusMessageIter *dict, const char *uuid, const unsigned char *bytes, int size) {
    const char *key = "ServiceData";
    DBusMessageIter entry, variant, services, service, inner, array;
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "a{sv}", &variant);
    dbus_message_iter_open_container(&variant, DBUS_TYPE_ARRAY, "{sv}", &services);
    dbus_message_iter_open_container(&services, DBUS_TYPE_DICT_ENTRY, NULL, &service);
    dbus_message_iter_append_basic(&service, DBUS_TYPE_STRING, &uuid);
    dbus_message_iter_open_container(&service, DBUS_TYPE_VARIANT, "ay", &inner);
    dbus_message_iter_open_container(&inner, DBUS_TYPE_ARRAY, "y", &array);
    dbus_message_iter_append_fixed_array(&array, DBUS_TYPE_BYTE, &bytes, size);
    dbus_message_iter_close_container(&inner, &array);
    dbus_message_iter_close_container(&service, &inner);
    dbus_message_iter_close_container(&services, &service);
    dbus_message_iter_close_container(&variant, &services);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(dict, &entry);
}

/* A thermometer's ServiceData. pvvx layout: MAC reversed,
 * temperature s16 x0.01 degC, humidity u16 x0.01 %, battery mV u16, battery %, counter, flags; little-endian.
 * mibeacon: the frame above, `counter` its frame counter with the extended counter above it. */
static void entry_service_data(DBusMessageIter *dict, int index, int centidegrees, unsigned counter) {
    unsigned char mac[6], payload[23];
    int size = 15;
    address_of(index, mac);
    if (mibeacon) {
        mibeacon_frame(index, centidegrees / 10, counter, payload);
        size = 23;
    } else {
        for (int i = 0; i < 6; i++) payload[i] = mac[5 - i];
        unsigned short humidity = 5000, millivolts = 3000;
        payload[6] = centidegrees & 0xFF; payload[7] = (centidegrees >> 8) & 0xFF;
        payload[8] = humidity & 0xFF; payload[9] = humidity >> 8;
        payload[10] = millivolts & 0xFF; payload[11] = millivolts >> 8;
        payload[12] = 90; payload[13] = counter & 0xFF; payload[14] = 0;
    }
    service_data(dict, mibeacon ? SERVICE_FE95 : SERVICE_181A, payload, size);
}

static void device_path(int index, char *path, size_t size) {
    unsigned char mac[6];
    address_of(index, mac);
    snprintf(path, size, "/org/bluez/hci0/dev_%02X_%02X_%02X_%02X_%02X_%02X", mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
}

/* One advert: PropertiesChanged("org.bluez.Device1", {RSSI[, ServiceData]}, []). */
static DBusMessage *thermometer(int index, dbus_int16_t rssi, int centidegrees, unsigned counter) {
    char path[64];
    device_path(index, path, sizeof path);
    DBusMessage *message = dbus_message_new_signal(path, "org.freedesktop.DBus.Properties", "PropertiesChanged");
    const char *interface = "org.bluez.Device1";
    DBusMessageIter args, dict, invalidated;
    dbus_message_iter_init_append(message, &args);
    dbus_message_iter_append_basic(&args, DBUS_TYPE_STRING, &interface);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict);
    entry_basic(&dict, "RSSI", DBUS_TYPE_INT16, "n", &rssi);
    if (pvvx || mibeacon) entry_service_data(&dict, index, centidegrees, counter);
    dbus_message_iter_close_container(&args, &dict);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "s", &invalidated);
    dbus_message_iter_close_container(&args, &invalidated);
    return message;
}

/* A burst's advert: the device's last one carries RSSI -40 and 40.00 degC, which no earlier one does. */
static DBusMessage *advert(int index, int round, int last) {
    return thermometer(index, last ? -40 : (dbus_int16_t)(-60 - round % 20), last ? 4000 : 2000 + (round % 2) * 100,
                       (unsigned)round);
}

/* One object of the GetManagedObjects reply: path -> {interface -> properties}. */
static void object(DBusMessageIter *objects, const char *path, const char *interface, int index) {
    DBusMessageIter entry, interfaces, ientry, props;
    dbus_message_iter_open_container(objects, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_OBJECT_PATH, &path);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_ARRAY, "{sa{sv}}", &interfaces);
    dbus_message_iter_open_container(&interfaces, DBUS_TYPE_DICT_ENTRY, NULL, &ientry);
    dbus_message_iter_append_basic(&ientry, DBUS_TYPE_STRING, &interface);
    dbus_message_iter_open_container(&ientry, DBUS_TYPE_ARRAY, "{sv}", &props);
    dbus_bool_t yes = TRUE, no = FALSE;
    if (index < 0) {
        const char *address = "00:11:22:33:44:55";
        entry_basic(&props, "Address", DBUS_TYPE_STRING, "s", &address);
        entry_basic(&props, "Powered", DBUS_TYPE_BOOLEAN, "b", &yes);
        entry_basic(&props, "Discovering", DBUS_TYPE_BOOLEAN, "b", &yes);
    } else {
        unsigned char mac[6];
        char address[18], name[24];
        address_of(index, mac);
        snprintf(address, sizeof address, "%02X:%02X:%02X:%02X:%02X:%02X", mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
        if (paced && index == devices) snprintf(name, sizeof name, "BTHome button");
        else if (pvvx) snprintf(name, sizeof name, "ATC_%02X%02X%02X", mac[3], mac[4], mac[5]);
        else if (mibeacon) snprintf(name, sizeof name, "LYWSD03MMC");
        else snprintf(name, sizeof name, "Bench %03d", index);
        const char *a = address, *n = name, *type = "public", *adapter = "/org/bluez/hci0";
        dbus_int16_t rssi = -70;
        entry_basic(&props, "Address", DBUS_TYPE_STRING, "s", &a);
        entry_basic(&props, "AddressType", DBUS_TYPE_STRING, "s", &type);
        entry_basic(&props, "Name", DBUS_TYPE_STRING, "s", &n);
        entry_basic(&props, "Alias", DBUS_TYPE_STRING, "s", &n);
        entry_basic(&props, "Adapter", DBUS_TYPE_OBJECT_PATH, "o", &adapter);
        entry_basic(&props, "Connected", DBUS_TYPE_BOOLEAN, "b", &no);
        entry_basic(&props, "RSSI", DBUS_TYPE_INT16, "n", &rssi);
        if ((pvvx || mibeacon) && !(paced && index == devices)) entry_service_data(&props, index, 2100, 255);
    }
    dbus_message_iter_close_container(&ientry, &props);
    dbus_message_iter_close_container(&interfaces, &ientry);
    dbus_message_iter_close_container(&entry, &interfaces);
    dbus_message_iter_close_container(objects, &entry);
}

static DBusMessage *managed_objects(DBusMessage *call) {
    DBusMessage *reply = dbus_message_new_method_return(call);
    DBusMessageIter args, objects;
    dbus_message_iter_init_append(reply, &args);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{oa{sa{sv}}}", &objects);
    object(&objects, "/org/bluez/hci0", "org.bluez.Adapter1", -1);
    for (int index = 0; index < devices + (paced ? 1 : 0); index++) {
        char path[64];
        device_path(index, path, sizeof path);
        object(&objects, path, "org.bluez.Device1", index);
    }
    dbus_message_iter_close_container(&args, &objects);
    return reply;
}

/* Every call but GetManagedObjects gets an empty return: the daemon only starts discovery, which is on. */
static DBusHandlerResult on_message(DBusConnection *connection, DBusMessage *message, void *data) {
    (void)data;
    if (dbus_message_get_type(message) != DBUS_MESSAGE_TYPE_METHOD_CALL) return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    DBusMessage *reply = dbus_message_is_method_call(message, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
        ? managed_objects(message) : dbus_message_new_method_return(message);
    dbus_connection_send(connection, reply, NULL);
    dbus_message_unref(reply);
    return DBUS_HANDLER_RESULT_HANDLED;
}

/* The burst, marshalled up front into one buffer: libdbus writes each message it sends with a syscall of its
 * own, which made the sender slower than the bus and its receivers. Serials are taken from a range libdbus's
 * own counter never reaches in this program's life; the bus fills in the sender. */
static char *wire;
static size_t wire_length;

static void prepare(void) {
    size_t capacity = 1 << 20;
    wire = malloc(capacity);
    for (int k = 0; k < count; k++) {
        DBusMessage *message = advert(k % devices, k / devices, k >= count - devices);
        dbus_message_set_serial(message, 0x40000000u + (dbus_uint32_t)k);
        char *bytes;
        int length;
        if (!dbus_message_marshal(message, &bytes, &length)) abort();
        while (wire_length + (size_t)length > capacity) wire = realloc(wire, capacity *= 2);
        if (!wire) abort();
        memcpy(wire + wire_length, bytes, (size_t)length);
        wire_length += (size_t)length;
        dbus_free(bytes);
        dbus_message_unref(message);
    }
}

/* Writes all of `length` bytes, waiting while the bus does not take them. */
static void write_all(int fd, const char *bytes, size_t length) {
    size_t done = 0;
    while (done < length) {
        ssize_t written = write(fd, bytes + done, length - done);
        if (written > 0) {
            done += (size_t)written;
        } else if (written < 0 && (errno == EAGAIN || errno == EINTR)) {
            struct pollfd out = {.fd = fd, .events = POLLOUT};
            poll(&out, 1, -1);
        } else {
            perror("write");
            exit(1);
        }
    }
}

static void burst(DBusConnection *connection) {
    int fd;
    dbus_connection_flush(connection);
    if (!dbus_connection_get_unix_fd(connection, &fd)) abort();
    long long start = now_ns();
    for (size_t done = 0; done < wire_length; done += 65536)
        write_all(fd, wire + done, wire_length - done < 65536 ? wire_length - done : 65536);
    long long end = now_ns();
    printf("sent %d %lld %lld\n", count, start, end);
    fflush(stdout);
}


/* A message's wire form, appended to `buffer`, with a serial of its own (from a range libdbus's counter never
 * reaches here). */
static unsigned serial = 0x40000000u;

static void append_wire(DBusMessage *message, char **buffer, size_t *length, size_t *capacity) {
    char *bytes;
    int size;
    dbus_message_set_serial(message, serial++);
    if (!dbus_message_marshal(message, &bytes, &size)) abort();
    while (*length + (size_t)size > *capacity) *buffer = realloc(*buffer, *capacity *= 2);
    if (!*buffer) abort();
    memcpy(*buffer + *length, bytes, (size_t)size);
    *length += (size_t)size;
    dbus_free(bytes);
    dbus_message_unref(message);
}

/* A BTHome v2 advert of the button: packet id, then (press) button 0x01. */
static DBusMessage *button_advert(int packet, int press) {
    char path[64];
    device_path(devices, path, sizeof path);
    DBusMessage *message = dbus_message_new_signal(path, "org.freedesktop.DBus.Properties", "PropertiesChanged");
    const char *interface = "org.bluez.Device1";
    unsigned char payload[5] = {0x40, 0x00, (unsigned char)packet, 0x3A, 0x01};
    dbus_int16_t rssi = -55;
    DBusMessageIter args, dict, invalidated;
    dbus_message_iter_init_append(message, &args);
    dbus_message_iter_append_basic(&args, DBUS_TYPE_STRING, &interface);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict);
    entry_basic(&dict, "RSSI", DBUS_TYPE_INT16, "n", &rssi);
    service_data(&dict, SERVICE_FCD2, payload, press ? 5 : 3);
    dbus_message_iter_close_container(&args, &dict);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "s", &invalidated);
    dbus_message_iter_close_container(&args, &invalidated);
    return message;
}

/* The sustained feed: the other thermometers' adverts, 20 rounds of RSSI marshalled beforehand and sent in
 * turn, RATE a second from SIGUSR1 for SECONDS, the probes among them. */
static char *cycle;
static size_t *offsets, cycle_messages;

static void prepare_paced(void) {
    size_t capacity = 1 << 20, length = 0;
    int others = devices - PROBES;
    cycle_messages = (size_t)others * 20;
    cycle = malloc(capacity);
    offsets = malloc((cycle_messages + 1) * sizeof *offsets);
    for (size_t k = 0; k < cycle_messages; k++) {
        offsets[k] = length;
        int round = (int)(k / (size_t)others);
        append_wire(thermometer(PROBES + (int)(k % (size_t)others), (dbus_int16_t)(-60 - round), 2100, (unsigned)round), &cycle,
                    &length, &capacity);
    }
    offsets[cycle_messages] = length;
}

static void feed(DBusConnection *connection) {
    int fd;
    if (!dbus_connection_get_unix_fd(connection, &fd)) abort();
    size_t capacity = 4096, length = 0;
    char *probe = malloc(capacity);
    /* Every device once at the start: the probe thermometers at 21.00 degC, the button with a packet id only. */
    for (int index = 0; index < PROBES; index++) append_wire(thermometer(index, -50, 2100, 0), &probe, &length, &capacity);
    append_wire(button_advert(0, 0), &probe, &length, &capacity);
    dbus_connection_flush(connection);
    long long start = now_ns(), next_probe = start + 250000000LL;
    write_all(fd, probe, length);
    long long total = (long long)rate * seconds, sent = 0;
    int probes = 0;
    size_t position = 0;
    struct timespec tick;
    clock_gettime(CLOCK_MONOTONIC, &tick);
    while (sent < total) {
        tick.tv_nsec += 1000000;
        if (tick.tv_nsec >= 1000000000) { tick.tv_nsec -= 1000000000; tick.tv_sec++; }
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &tick, NULL);
        long long now = now_ns();
        long long due = (now - start) * rate / 1000000000LL;
        if (due > total) due = total;
        while (sent < due) {
            size_t run = (size_t)(due - sent);
            if (run > cycle_messages - position) run = cycle_messages - position;
            write_all(fd, cycle + offsets[position], offsets[position + run] - offsets[position]);
            sent += (long long)run;
            position = (position + run) % cycle_messages;
        }
        if (now >= next_probe) {
            length = 0;
            probes++;
            int press = probes % 2 == 1, index = (probes / 2) % PROBES, centidegrees = 2200 + (probes % 40) * 25;
            if (press) append_wire(button_advert(probes & 0xFF, 1), &probe, &length, &capacity);
            else append_wire(thermometer(index, -50, centidegrees, (unsigned)probes), &probe, &length, &capacity);
            write_all(fd, probe, length);
            long long written = now_ns();
            if (press) printf("probe b %d %lld\n", probes, written);
            else printf("probe v %d %lld %d %d\n", probes, written, index, centidegrees);
            next_probe += 250000000LL;
        }
    }
    printf("sent %lld %lld %lld\n", sent, start, now_ns());
    fflush(stdout);
    free(probe);
}

int main(int argc, char **argv) {
    paced = argc == 6 && strcmp(argv[3], "paced") == 0;
    if (argc != 5 && !paced) {
        fprintf(stderr, "usage: %s ADDRESS DEVICES COUNT rssi|pvvx|mibeacon, or ADDRESS DEVICES paced RATE SECONDS\n", argv[0]);
        return 2;
    }
    devices = atoi(argv[2]);
    if (paced) {
        rate = atoi(argv[4]);
        seconds = atoi(argv[5]);
        pvvx = 1;
        if (devices <= PROBES || devices > 65534 || rate < 1 || seconds < 1) {
            fprintf(stderr, "need %d < DEVICES <= 65534, RATE >= 1 and SECONDS >= 1\n", PROBES);
            return 2;
        }
    } else {
        count = atoi(argv[3]);
        pvvx = strcmp(argv[4], "pvvx") == 0;
        mibeacon = strcmp(argv[4], "mibeacon") == 0;
        if (devices < 1 || devices > 65535 || count < devices) {
            fprintf(stderr, "need 1 <= DEVICES <= 65535 and COUNT >= DEVICES\n");
            return 2;
        }
    }
    signal(SIGUSR1, on_usr1);
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *connection = dbus_connection_open_private(argv[1], &error);
    if (!connection || !dbus_bus_register(connection, &error)) {
        fprintf(stderr, "cannot connect: %s\n", error.message);
        return 1;
    }
    if (dbus_bus_request_name(connection, "org.bluez", DBUS_NAME_FLAG_DO_NOT_QUEUE, &error)
        != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
        fprintf(stderr, "cannot own org.bluez: %s\n", error.message ? error.message : "taken");
        return 1;
    }
    dbus_connection_add_filter(connection, on_message, NULL, NULL);
    if (paced) prepare_paced(); else prepare();
    printf("ready\n");
    fflush(stdout);
    int sent = 0;
    while (dbus_connection_read_write_dispatch(connection, 20)) {
        if (go && !sent) {
            if (paced) feed(connection); else burst(connection);
            sent = 1;
        }
    }
    return 0;
}
