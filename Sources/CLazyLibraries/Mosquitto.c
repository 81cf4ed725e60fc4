// libmosquitto, for hunts over a Mosquitto broker: a chestd or a board that has none never opens it.
#include "Library.h"

#include <mosquitto.h>

static struct chest_library mosquitto = {.soname = "libmosquitto.so.1", .package = "libmosquitto1"};

CHEST_ON_DEMAND(mosquitto, int, mosquitto_lib_init, (void), ())
CHEST_ON_DEMAND(mosquitto, struct mosquitto *, mosquitto_new, (const char *id, bool clean_session, void *context),
                (id, clean_session, context))
CHEST_ON_DEMAND_VOID(mosquitto, mosquitto_destroy, (struct mosquitto * client), (client))
CHEST_ON_DEMAND(mosquitto, const char *, mosquitto_connack_string, (int code), (code))
CHEST_ON_DEMAND(mosquitto, const char *, mosquitto_strerror, (int error), (error))
CHEST_ON_DEMAND(mosquitto, int, mosquitto_connect_async,
                (struct mosquitto * client, const char *host, int port, int keepalive),
                (client, host, port, keepalive))
CHEST_ON_DEMAND(mosquitto, int, mosquitto_reconnect_async, (struct mosquitto * client), (client))
CHEST_ON_DEMAND(mosquitto, int, mosquitto_disconnect, (struct mosquitto * client), (client))
CHEST_ON_DEMAND(mosquitto, int, mosquitto_loop, (struct mosquitto * client, int timeout, int max_packets),
                (client, timeout, max_packets))
CHEST_ON_DEMAND(mosquitto, int, mosquitto_socket, (struct mosquitto * client), (client))
CHEST_ON_DEMAND(mosquitto, int, mosquitto_threaded_set, (struct mosquitto * client, bool threaded),
                (client, threaded))
CHEST_ON_DEMAND(mosquitto, int, mosquitto_int_option, (struct mosquitto * client, enum mosq_opt_t option, int value),
                (client, option, value))
CHEST_ON_DEMAND(mosquitto, int, mosquitto_tls_set,
                (struct mosquitto * client, const char *cafile, const char *capath, const char *certfile,
                 const char *keyfile, int (*password)(char *buffer, int size, int rwflag, void *context)),
                (client, cafile, capath, certfile, keyfile, password))
CHEST_ON_DEMAND(mosquitto, int, mosquitto_username_pw_set,
                (struct mosquitto * client, const char *username, const char *password),
                (client, username, password))
CHEST_ON_DEMAND(mosquitto, int, mosquitto_will_set,
                (struct mosquitto * client, const char *topic, int length, const void *payload, int qos, bool retain),
                (client, topic, length, payload, qos, retain))
CHEST_ON_DEMAND(mosquitto, int, mosquitto_publish,
                (struct mosquitto * client, int *id, const char *topic, int length, const void *payload, int qos,
                 bool retain),
                (client, id, topic, length, payload, qos, retain))
CHEST_ON_DEMAND(mosquitto, int, mosquitto_subscribe, (struct mosquitto * client, int *id, const char *pattern, int qos),
                (client, id, pattern, qos))
CHEST_ON_DEMAND_VOID(mosquitto, mosquitto_user_data_set, (struct mosquitto * client, void *context),
                     (client, context))
CHEST_ON_DEMAND_VOID(mosquitto, mosquitto_connect_callback_set,
                     (struct mosquitto * client, void (*callback)(struct mosquitto *, void *, int)),
                     (client, callback))
CHEST_ON_DEMAND_VOID(mosquitto, mosquitto_disconnect_callback_set,
                     (struct mosquitto * client, void (*callback)(struct mosquitto *, void *, int)),
                     (client, callback))
CHEST_ON_DEMAND_VOID(mosquitto, mosquitto_publish_callback_set,
                     (struct mosquitto * client, void (*callback)(struct mosquitto *, void *, int)),
                     (client, callback))
CHEST_ON_DEMAND_VOID(mosquitto, mosquitto_message_callback_set,
                     (struct mosquitto * client,
                      void (*callback)(struct mosquitto *, void *, const struct mosquitto_message *)),
                     (client, callback))
