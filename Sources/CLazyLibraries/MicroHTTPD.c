// GNU libmicrohttpd, for the board in a browser (chest board --http) alone.
#include "Library.h"

#include <stdarg.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <microhttpd.h>

static struct chest_library microhttpd = {.soname = "libmicrohttpd.so.12", .package = "libmicrohttpd12"};

// The options' list is passed on whole: libmicrohttpd has a form of the function that takes it as a va_list.
struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback policy,
                                    void *policy_context, MHD_AccessHandlerCallback handler, void *handler_context,
                                    ...) {
    static void *_Atomic bound;
    struct MHD_Daemon *(*start)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *, MHD_AccessHandlerCallback,
                                void *, va_list) = chest_library_bind(&microhttpd, "MHD_start_daemon_va", &bound);
    va_list options;
    va_start(options, handler_context);
    struct MHD_Daemon *daemon = start(flags, port, policy, policy_context, handler, handler_context, options);
    va_end(options);
    return daemon;
}

CHEST_ON_DEMAND_VOID(microhttpd, MHD_stop_daemon, (struct MHD_Daemon * daemon), (daemon))
// The kinds of information chest asks for take no further argument (shim.h).
CHEST_ON_DEMAND(microhttpd, const union MHD_DaemonInfo *, MHD_get_daemon_info,
                (struct MHD_Daemon * daemon, enum MHD_DaemonInfoType kind, ...), (daemon, kind))
CHEST_ON_DEMAND(microhttpd, const union MHD_ConnectionInfo *, MHD_get_connection_info,
                (struct MHD_Connection * connection, enum MHD_ConnectionInfoType kind, ...), (connection, kind))
CHEST_ON_DEMAND(microhttpd, const char *, MHD_lookup_connection_value,
                (struct MHD_Connection * connection, enum MHD_ValueKind kind, const char *key),
                (connection, kind, key))
// Whether an argument is there at all: `?photos` has no value (docs/HUNTS.md "Missions").
CHEST_ON_DEMAND(microhttpd, enum MHD_Result, MHD_lookup_connection_value_n,
                (struct MHD_Connection * connection, enum MHD_ValueKind kind, const char *key, size_t key_size,
                 const char **value, size_t *value_size),
                (connection, kind, key, key_size, value, value_size))
CHEST_ON_DEMAND(microhttpd, struct MHD_Response *, MHD_create_response_from_buffer,
                (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode), (size, buffer, mode))
CHEST_ON_DEMAND(microhttpd, struct MHD_Response *, MHD_create_response_from_callback,
                (uint64_t size, size_t block_size, MHD_ContentReaderCallback reader, void *context,
                 MHD_ContentReaderFreeCallback free_context),
                (size, block_size, reader, context, free_context))
CHEST_ON_DEMAND(microhttpd, enum MHD_Result, MHD_add_response_header,
                (struct MHD_Response * response, const char *header, const char *content),
                (response, header, content))
CHEST_ON_DEMAND(microhttpd, enum MHD_Result, MHD_queue_response,
                (struct MHD_Connection * connection, unsigned int status, struct MHD_Response *response),
                (connection, status, response))
CHEST_ON_DEMAND_VOID(microhttpd, MHD_destroy_response, (struct MHD_Response * response), (response))
CHEST_ON_DEMAND_VOID(microhttpd, MHD_suspend_connection, (struct MHD_Connection * connection), (connection))
CHEST_ON_DEMAND_VOID(microhttpd, MHD_resume_connection, (struct MHD_Connection * connection), (connection))
