// GNU libmicrohttpd, as Debian's libmicrohttpd-dev installs it.
#include <sys/types.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>
#include <malloc.h>

// MHD_start_daemon, MHD_get_daemon_info and MHD_get_connection_info are variadic, which Swift cannot call: these
// take the options chest uses. libmicrohttpd's own per-address cap is left off: chest counts IPv6 by /64 in the
// accept policy instead (docs/HUNTS.md "Slow and idle connections").
static inline struct MHD_Daemon *chest_mhd_start(unsigned int flags, const struct sockaddr *address,
                                                 MHD_AcceptPolicyCallback accept_policy,
                                                 MHD_AccessHandlerCallback handler,
                                                 MHD_NotifyConnectionCallback notify_connection,
                                                 MHD_RequestCompletedCallback notify_completed, void *context,
                                                 unsigned int idle_timeout, unsigned int connection_limit,
                                                 unsigned int threads) {
    return MHD_start_daemon(flags, 0, accept_policy, context, handler, context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_CONNECTION_TIMEOUT, idle_timeout,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_NOTIFY_CONNECTION, notify_connection, context,
                            MHD_OPTION_NOTIFY_COMPLETED, notify_completed, context,
                            MHD_OPTION_THREAD_POOL_SIZE, threads,
                            MHD_OPTION_END);
}

static inline int chest_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

static inline const struct sockaddr *chest_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

static inline void *chest_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

static inline uint16_t chest_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

// Blocks of 128 KiB and more mapped on their own and unmapped when freed, whatever was freed before. glibc otherwise
// raises this threshold to the size of each large block freed (up to 32 MiB), after which the board's renderings and
// event-stream updates, megabytes each at 5,000 teams, come from the server threads' malloc arenas and their pages stay
// resident there once freed (docs/BENCHMARKS.md "A city"). Swift's Glibc module has no malloc.h.
static inline void chest_map_large_allocations(void) {
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
}
