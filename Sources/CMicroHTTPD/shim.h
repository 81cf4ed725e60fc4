// GNU libmicrohttpd, as Debian's libmicrohttpd-dev installs it.
#include <sys/types.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>

// MHD_start_daemon and MHD_get_daemon_info are variadic, which Swift cannot call: these take the options chest uses.
static inline struct MHD_Daemon *chest_mhd_start(unsigned int flags, const struct sockaddr *address,
                                                 MHD_AccessHandlerCallback handler, void *context,
                                                 unsigned int idle_timeout, unsigned int connection_limit,
                                                 unsigned int per_address_limit, unsigned int threads) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_CONNECTION_TIMEOUT, idle_timeout,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
                            MHD_OPTION_THREAD_POOL_SIZE, threads,
                            MHD_OPTION_END);
}

static inline uint16_t chest_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
