// libmosquitto, for hunts over a Mosquitto broker: a chestd or a board that has none never opens it.
#include "Library.h"

#include "../CMosquitto/shim.h"

#define LIBRARY chest_mosquitto_library
#define FUNCTIONS(F, V, L)                                                                                            \
    F(int, mosquitto_lib_init, (void), ())                                                                            \
    F(struct mosquitto *, mosquitto_new, (const char *id, bool clean_session, void *context), (id, clean_session,     \
          context))                                                                                                   \
    V(mosquitto_destroy, (struct mosquitto * client), (client))                                                       \
    F(const char *, mosquitto_connack_string, (int code), (code))                                                     \
    F(const char *, mosquitto_strerror, (int error), (error))                                                         \
    F(int, mosquitto_connect_async, (struct mosquitto * client, const char *host, int port, int keepalive),           \
          (client, host, port, keepalive))                                                                            \
    F(int, mosquitto_reconnect_async, (struct mosquitto * client), (client))                                          \
    F(int, mosquitto_disconnect, (struct mosquitto * client), (client))                                               \
    F(int, mosquitto_loop_read, (struct mosquitto * client, int max_packets), (client, max_packets))                  \
    F(int, mosquitto_loop_write, (struct mosquitto * client, int max_packets), (client, max_packets))                 \
    F(int, mosquitto_loop_misc, (struct mosquitto * client), (client))                                                \
    F(bool, mosquitto_want_write, (struct mosquitto * client), (client))                                              \
    F(int, mosquitto_socket, (struct mosquitto * client), (client))                                                   \
    F(int, mosquitto_threaded_set, (struct mosquitto * client, bool threaded), (client, threaded))                    \
    F(int, mosquitto_int_option, (struct mosquitto * client, enum mosq_opt_t option, int value), (client, option,     \
          value))                                                                                                     \
    F(int, mosquitto_tls_set, (struct mosquitto * client, const char *cafile, const char *capath, const char          \
          *certfile, const char *keyfile, int (*password)(char *buffer, int size, int rwflag, void *context)),        \
          (client, cafile, capath, certfile, keyfile, password))                                                      \
    F(int, mosquitto_username_pw_set, (struct mosquitto * client, const char *username, const char *password),        \
          (client, username, password))                                                                               \
    F(int, mosquitto_will_set, (struct mosquitto * client, const char *topic, int length, const void *payload, int    \
          qos, bool retain), (client, topic, length, payload, qos, retain))                                           \
    F(int, mosquitto_publish, (struct mosquitto * client, int *id, const char *topic, int length, const void          \
          *payload, int qos, bool retain), (client, id, topic, length, payload, qos, retain))                         \
    F(int, mosquitto_subscribe, (struct mosquitto * client, int *id, const char *pattern, int qos), (client, id,      \
          pattern, qos))                                                                                              \
    V(mosquitto_user_data_set, (struct mosquitto * client, void *context), (client, context))                         \
    V(mosquitto_connect_callback_set, (struct mosquitto * client, void (*callback)(struct mosquitto *, void *,        \
          int)), (client, callback))                                                                                  \
    V(mosquitto_disconnect_callback_set, (struct mosquitto * client, void (*callback)(struct mosquitto *, void *,     \
          int)), (client, callback))                                                                                  \
    V(mosquitto_publish_callback_set, (struct mosquitto * client, void (*callback)(struct mosquitto *, void *,        \
          int)), (client, callback))                                                                                  \
    V(mosquitto_message_callback_set, (struct mosquitto * client, void (*callback)(struct mosquitto *, void *,        \
          const struct mosquitto_message *)), (client, callback))

CHEST_LIBRARY(.soname = "libmosquitto.so.1")
