/* The least an MQTT bridge can do for a light: subscribe to BASE/+/set and answer each command with the
 * light's state, retained, on BASE/LIGHT. One libmosquitto thread, no parsing beyond the brightness the
 * command carries. The benchmark's yardstick for the daemon's /set → state round trip: the same two passes
 * through the broker, without the daemon's code.
 *
 *   bare_responder HOST PORT BASE QOS
 *
 * Prints "ready" once the subscription is acknowledged, then answers until killed. */
#include <mosquitto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *base;
static size_t base_length;
static int qos;

static void on_connect(struct mosquitto *mosq, void *data, int rc) {
    (void)data;
    if (rc != 0) {
        fprintf(stderr, "connect refused: %d\n", rc);
        exit(1);
    }
    char filter[256];
    snprintf(filter, sizeof filter, "%s/+/set", base);
    mosquitto_subscribe(mosq, NULL, filter, qos);
}

static void on_subscribe(struct mosquitto *mosq, void *data, int mid, int count, const int *granted) {
    (void)mosq, (void)data, (void)mid, (void)count, (void)granted;
    printf("ready\n");
    fflush(stdout);
}

static void on_message(struct mosquitto *mosq, void *data, const struct mosquitto_message *message) {
    (void)data;
    /* BASE/LIGHT/set → BASE/LIGHT */
    size_t length = strlen(message->topic);
    if (length < base_length + 6 || strcmp(message->topic + length - 4, "/set") != 0) return;
    char topic[256];
    if (length - 4 >= sizeof topic) return;
    memcpy(topic, message->topic, length - 4);
    topic[length - 4] = 0;
    char payload[128];
    int n = 0;
    if (message->payloadlen > 0 && message->payloadlen < 512) {
        char text[512];
        memcpy(text, message->payload, (size_t)message->payloadlen);
        text[message->payloadlen] = 0;
        const char *found = strstr(text, "\"brightness\":");
        n = found ? atoi(found + 13) : 0;
    }
    int size = snprintf(payload, sizeof payload, "{\"brightness\":%d,\"state\":\"ON\"}", n);
    mosquitto_publish(mosq, NULL, topic, size, payload, qos, true);
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s HOST PORT BASE QOS\n", argv[0]);
        return 2;
    }
    base = argv[3];
    base_length = strlen(base);
    qos = atoi(argv[4]);
    mosquitto_lib_init();
    struct mosquitto *mosq = mosquitto_new(NULL, true, NULL);
    if (!mosq) return 1;
    /* As the daemon does: small packets are not held back by Nagle's algorithm. */
    mosquitto_int_option(mosq, MOSQ_OPT_TCP_NODELAY, 1);
    mosquitto_connect_callback_set(mosq, on_connect);
    mosquitto_subscribe_callback_set(mosq, on_subscribe);
    mosquitto_message_callback_set(mosq, on_message);
    if (mosquitto_connect(mosq, argv[1], atoi(argv[2]), 60) != MOSQ_ERR_SUCCESS) {
        fprintf(stderr, "cannot connect to %s:%s\n", argv[1], argv[2]);
        return 1;
    }
    mosquitto_loop_forever(mosq, -1, 1);
    return 0;
}
