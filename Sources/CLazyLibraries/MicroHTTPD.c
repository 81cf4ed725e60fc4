// GNU libmicrohttpd, for the board in a browser (chest board --http) alone.
#include "Library.h"

#include "../CMicroHTTPD/shim.h"

#define LIBRARY chest_microhttpd_library
#define FUNCTIONS(F, V, L)                                                                                            \
    V(MHD_stop_daemon, (struct MHD_Daemon * daemon), (daemon))                                                        \
    F(const char *, MHD_lookup_connection_value,                                                                      \
      (struct MHD_Connection * connection, enum MHD_ValueKind kind, const char *key), (connection, kind, key))        \
    /* Whether an argument is there at all: `?photos` has no value (docs/HUNTS.md "Missions"). */                     \
    F(enum MHD_Result, MHD_lookup_connection_value_n,                                                                 \
      (struct MHD_Connection * connection, enum MHD_ValueKind kind, const char *key, size_t key_size,                 \
       const char **value, size_t *value_size),                                                                       \
      (connection, kind, key, key_size, value, value_size))                                                           \
    F(struct MHD_Response *, MHD_create_response_from_buffer,                                                         \
      (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode), (size, buffer, mode))                            \
    F(struct MHD_Response *, MHD_create_response_from_callback,                                                       \
      (uint64_t size, size_t block_size, MHD_ContentReaderCallback reader, void *context,                             \
       MHD_ContentReaderFreeCallback free_context),                                                                   \
      (size, block_size, reader, context, free_context))                                                              \
    F(enum MHD_Result, MHD_add_response_header,                                                                       \
      (struct MHD_Response * response, const char *header, const char *content), (response, header, content))         \
    F(enum MHD_Result, MHD_queue_response,                                                                            \
      (struct MHD_Connection * connection, unsigned int status, struct MHD_Response *response),                       \
      (connection, status, response))                                                                                 \
    V(MHD_destroy_response, (struct MHD_Response * response), (response))                                             \
    V(MHD_suspend_connection, (struct MHD_Connection * connection), (connection))                                     \
    V(MHD_resume_connection, (struct MHD_Connection * connection), (connection))                                      \
    L(MHD_start_daemon)                                                                                               \
    L(MHD_get_daemon_info)                                                                                            \
    L(MHD_get_connection_info)

CHEST_LIBRARY(.soname = "libmicrohttpd.so.12")

// The three variadic functions, called with the options chest uses. libmicrohttpd's own per-address cap is left
// off: chest counts IPv6 by /64 in the accept policy instead (docs/HUNTS.md "Slow and idle connections").
typedef struct MHD_Daemon *(*start_function)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
                                             MHD_AccessHandlerCallback, void *, ...);
typedef const union MHD_DaemonInfo *(*daemon_info_function)(struct MHD_Daemon *, enum MHD_DaemonInfoType, ...);
typedef const union MHD_ConnectionInfo *(*connection_info_function)(struct MHD_Connection *,
                                                                    enum MHD_ConnectionInfoType, ...);

struct MHD_Daemon *chest_mhd_start(unsigned int flags, const struct sockaddr *address,
                                   MHD_AcceptPolicyCallback accept_policy, MHD_AccessHandlerCallback handler,
                                   MHD_NotifyConnectionCallback notify_connection,
                                   MHD_RequestCompletedCallback notify_completed, void *context,
                                   unsigned int idle_timeout, unsigned int connection_limit, unsigned int threads) {
    return CHEST_FUNCTION(start_function, MHD_start_daemon)(
        flags, 0, accept_policy, context, handler, context, MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_CONNECTION_TIMEOUT, idle_timeout, MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_NOTIFY_CONNECTION, notify_connection, context, MHD_OPTION_NOTIFY_COMPLETED, notify_completed,
        context, MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_END);
}

static const union MHD_ConnectionInfo *connection_info(struct MHD_Connection *connection,
                                                       enum MHD_ConnectionInfoType kind) {
    return CHEST_FUNCTION(connection_info_function, MHD_get_connection_info)(connection, kind);
}

int chest_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

const struct sockaddr *chest_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

void *chest_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

uint16_t chest_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info =
        CHEST_FUNCTION(daemon_info_function, MHD_get_daemon_info)(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
