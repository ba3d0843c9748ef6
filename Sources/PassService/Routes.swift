import PassStore
import PassHTTP
/// The whole HTTP surface of the update service (DESIGN.md "The update service", wallet-spec §6), in one table.
/// `Router` rejects patterns that clash, at startup and in a test.
enum Routes {
    static func table(_ h: Handlers) -> [Route] {
        [
            Route(.post, "/v1/devices/:device/registrations/:passType/:serial", h.registrations.register),
            Route(.delete, "/v1/devices/:device/registrations/:passType/:serial", h.registrations.unregister),
            Route(.get, "/v1/devices/:device/registrations/:passType", h.registrations.list),
            Route(.get, "/v1/passes/:passType/:serial", h.passes.latest),
            Route(.post, "/v1/passes/:passType/:serial/personalize", h.personalization.personalize),
            Route(.post, "/v1/log", h.logs.append),
            Route(.get, "/admin/v1/passes/:serial", h.admin.show),
            Route(.patch, "/admin/v1/passes/:serial", h.admin.update),
            Route(.get, "/admin/v1/passes/:serial/trace", h.admin.trace),
            Route(.post, "/admin/v1/updates", h.admin.submitUpdates),
            Route(.get, "/admin/v1/updates/:id", h.admin.showUpdates),
            Route(.post, "/admin/v1/passes/:serial/link", h.links.reissue),
            Route(.delete, "/admin/v1/passes/:serial/link", h.links.revoke),
            Route(.get, "/p/:linkToken", h.links.open),
            Route(.get, "/admin/v1/stats", h.admin.stats),
            Route(.get, "/google/images/:file", h.google.image),
            Route(.post, "/google/callbacks", h.google.callback),
            Route(.get, "/healthz", h.operations.health),
            Route(.get, "/metrics", h.operations.metrics),
        ]
    }

    /// The admin API's head check: every request under `/admin` (in its `RequestPath` form, as routed) must carry
    /// the bearer token before a body byte is read; only `POST /admin/v1/updates` then takes a bulk body.
    static func headGuard(_ context: HandlerContext, limits: RequestLimits) -> HeadGuard {
        let bulk = ["admin", "v1", "updates"]
        let bulkLimit = max(limits.maxBodyBytes, limits.maxUpdateBodyBytes)
        return HeadGuard { head in
            guard RequestPath.raw(head.path, startsWith: "admin") else { return .read(bodyLimit: limits.maxBodyBytes) }
            do throws(HTTPError) {
                try context.authorizeAdmin(head.headers)
            } catch {
                return .refuse(error)
            }
            let isBulk = head.method == .post && (try? RequestPath(head.path))?.segments == bulk
            return .read(bodyLimit: isBulk ? bulkLimit : limits.maxBodyBytes)
        }
    }

    /// The path of a bulk change's status (`Location` of its 202).
    static let bulkUpdatesPath = "/admin/v1/updates"

    /// The handler groups the table points into.
    struct Handlers: Sendable {
        let registrations: RegistrationHandlers
        let passes: PassHandlers
        let personalization: PersonalizationHandlers
        let logs: LogHandlers
        let admin: AdminHandlers
        let operations: OperationsHandlers
        let links: LinkHandlers
        let google: GoogleHandlers

        init(
            _ context: HandlerContext, links: (any PassLinkStore)?, linkBase: String?,
            google: GoogleWalletHooks? = nil
        ) {
            registrations = RegistrationHandlers(context: context)
            passes = PassHandlers(context: context)
            personalization = PersonalizationHandlers(context: context)
            logs = LogHandlers(context: context)
            admin = AdminHandlers(context: context)
            operations = OperationsHandlers(context: context)
            self.links = LinkHandlers(context: context, links: links, linkBase: linkBase, google: google)
            self.google = GoogleHandlers(
                context: context, store: context.store as? any GoogleWalletStore, hooks: google)
        }
    }
}
