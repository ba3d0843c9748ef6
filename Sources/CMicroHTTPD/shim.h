#ifndef PASSMINT_CMICROHTTPD_SHIM_H
#define PASSMINT_CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <microhttpd.h>

/* The URI log callback's type, which microhttpd.h only spells out in a comment. */
typedef void *(*pm_mhd_uri_log_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

/* MHD_start_daemon is variadic: start a daemon bound to `addr` with PassMint's fixed option set. The URI log
   callback sees the request target before libmicrohttpd decodes it into a C string (where %00 truncates); the
   accept policy and connection notifications keep the per-address counts and deadlines; the logger sees the
   errors libmicrohttpd answers itself. With `tls_cert` (PEM, NUL-terminated, like `tls_key` and
   `tls_priorities`) the daemon serves only TLS; MHD hands the PEM text to GnuTLS while starting. */
static inline struct MHD_Daemon *pm_mhd_start_daemon(unsigned int flags, const struct sockaddr *addr,
                                                     unsigned int thread_pool_size, size_t memory_limit,
                                                     unsigned int timeout_seconds, unsigned int connection_limit,
                                                     MHD_AccessHandlerCallback handler,
                                                     MHD_RequestCompletedCallback completed,
                                                     pm_mhd_uri_log_callback uri_log,
                                                     MHD_AcceptPolicyCallback accept_policy,
                                                     MHD_NotifyConnectionCallback notify_connection,
                                                     MHD_LogCallback logger, void *cls,
                                                     const char *tls_cert, const char *tls_key,
                                                     const char *tls_priorities) {
    struct MHD_OptionItem tls[] = {
        { MHD_OPTION_HTTPS_MEM_CERT, 0, (void *) tls_cert },
        { MHD_OPTION_HTTPS_MEM_KEY, 0, (void *) tls_key },
        { MHD_OPTION_HTTPS_PRIORITIES, 0, (void *) tls_priorities },
        { MHD_OPTION_END, 0, NULL },
    };
    struct MHD_OptionItem plain[] = { { MHD_OPTION_END, 0, NULL } };
    /* The logger comes first: libmicrohttpd reports problems with later options through it. */
    return MHD_start_daemon(flags | (tls_cert != NULL ? MHD_USE_TLS : 0), 0, accept_policy, cls, handler, cls,
                            MHD_OPTION_EXTERNAL_LOGGER, logger, cls,
                            MHD_OPTION_ARRAY, tls_cert != NULL ? tls : plain,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_log, cls,
                            MHD_OPTION_SOCK_ADDR, addr,
                            MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
                            MHD_OPTION_NOTIFY_CONNECTION, notify_connection, cls,
                            MHD_OPTION_END);
}

/* MHD_get_daemon_info is variadic: the port the daemon actually bound (port 0 asks the kernel for a free one). */
static inline uint16_t pm_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}
/* MHD_FEATURE_TLS shares its value with the deprecated MHD_FEATURE_SSL, and Swift imports neither name. */
static inline int pm_mhd_supports_tls(void) { return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES; }
/* MHD_get_connection_info is variadic: the client's IP address as text into `buffer` (INET6_ADDRSTRLEN bytes
   suffice); returns 0 when the address is unknown or of another family. */
static inline int pm_mhd_client_address(struct MHD_Connection *connection, char *buffer, socklen_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return 0;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET)
        return inet_ntop(AF_INET, &((const struct sockaddr_in *) address)->sin_addr, buffer, size) != NULL;
    if (address->sa_family == AF_INET6)
        return inet_ntop(AF_INET6, &((const struct sockaddr_in6 *) address)->sin6_addr, buffer, size) != NULL;
    return 0;
}
/* MHD_get_connection_info is variadic: the client's socket address (NULL when unknown). */
static inline const struct sockaddr *pm_mhd_client_sockaddr(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info ? info->client_addr : NULL;
}
/* MHD_get_connection_info is variadic: the connection's socket (-1 when unknown). */
static inline int pm_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}
/* MHD_get_connection_info is variadic: what the connection-started notification stored for the connection. */
static inline void *pm_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}
/* MHD_get_connection_info is variadic: the size of the current request's head, 0 until all of it was received. */
static inline size_t pm_mhd_request_header_size(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info ? info->header_size : 0;
}
#endif
