/// Why the adapter cut a connection or refused it before any request was read.
public enum ConnectionRefusal: String, Sendable, CaseIterable {
    /// The client's address already held `ConnectionLimits.perAddress` connections.
    case perAddressLimit = "per_address_limit"
    /// A request's head did not arrive within the request deadline.
    case headTimeout = "head_timeout"
    /// A request's body did not arrive within its deadline (the request deadline plus one second per KiB).
    case bodyTimeout = "body_timeout"
}

/// How long a client may take over a request, and how many connections one address may hold.
public struct ConnectionLimits: Sendable, Equatable {
    /// Most connections open at once from one IP address; 0: no cap. Default 256.
    ///
    /// A carrier-grade NAT puts many phones behind one address, and a push to every member makes their phones
    /// fetch the pass within seconds, each connection held for as long as a slow network needs; 256 leaves room
    /// for that while one address alone can hold at most a sixteenth of the server's 4,096 connections. Behind a
    /// reverse proxy every connection comes from the proxy: raise the cap there, or set 0 and let the proxy cap
    /// per client. An IPv6 client with a /64 has many addresses; a proxy that keys on the /64 covers that.
    public var perAddress: Int
    /// Seconds a request's head may take, from the moment the connection is ready for it (accepted, or the
    /// previous response sent); its body then gets as long again plus one second per KiB received, so any client
    /// sending at least 1 KiB/s (8 kbit/s, below a GPRS link) is never cut. Default 30; 0: no deadline.
    public var requestSeconds: Int

    public init(perAddress: Int = 256, requestSeconds: Int = 30) {
        self.perAddress = perAddress
        self.requestSeconds = requestSeconds
    }
}
