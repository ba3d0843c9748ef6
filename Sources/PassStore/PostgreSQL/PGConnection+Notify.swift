import Foundation
internal import CPostgreSQL

/// One `NOTIFY` received on a connection that ran `LISTEN`.
struct PGNotification: Sendable, Equatable {
    let channel: String
    let payload: String
}

extension PGConnection {
    /// Waits up to `timeoutMilliseconds` for notifications on this (listening) connection and returns every one
    /// that has arrived, oldest first; empty when none came in time.
    /// - Throws: `StoreError.databaseUnavailable` once the connection is lost (the caller reconnects and
    ///   must assume it missed notifications meanwhile).
    func awaitNotifications(timeoutMilliseconds: Int32) throws(StoreError) -> [PGNotification] {
        var received = drainNotifications()
        guard received.isEmpty else { return received }
        let socket = PQsocket(handle)
        guard socket >= 0, isUsable else { throw lost("no connection") }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, timeoutMilliseconds)
        if ready < 0 && errno != EINTR { throw lost("poll failed: errno \(errno)") }
        if ready > 0 {
            guard PQconsumeInput(handle) == 1, isUsable else {
                throw lost(String(cString: PQerrorMessage(handle)))
            }
            received = drainNotifications()
        }
        return received
    }

    private func drainNotifications() -> [PGNotification] {
        var received: [PGNotification] = []
        while let notification = PQnotifies(handle) {
            received.append(
                PGNotification(
                    channel: String(cString: notification.pointee.relname),
                    payload: String(cString: notification.pointee.extra)))
            PQfreemem(notification)
        }
        return received
    }

    private func lost(_ message: String) -> StoreError {
        .databaseUnavailable(
            server: server,
            message: message.split(whereSeparator: \.isNewline).joined(separator: "; "))
    }
}
