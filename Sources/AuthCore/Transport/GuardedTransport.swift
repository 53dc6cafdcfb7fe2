public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// The transport an ``AuthClient`` hands out (``AuthClient/transport``): the app's transport behind the rules
/// every request of the engine, a ``Session`` or a provider's own endpoint must follow.
///
/// - the URL must be `https`, or `http` on a loopback IP literal (`insecure_endpoint`, checked before anything is
///   sent — so a bearer token or client secret never leaves over cleartext);
/// - the body is capped and the exchange has one deadline (``HTTPRequestLimits``), enforced by the wrapped
///   transport while the body arrives.
public struct GuardedTransport: HTTPTransport {
    /// The transport that actually sends.
    public let base: any HTTPTransport
    /// The limits applied to every request sent through ``send(_:)``.
    public let limits: HTTPRequestLimits

    /// Wraps `base`; wrapping a `GuardedTransport` again replaces its limits rather than nesting.
    public init(_ base: any HTTPTransport, limits: HTTPRequestLimits) {
        self.base = (base as? GuardedTransport)?.base ?? base
        self.limits = limits
    }

    /// Sends `request` under ``limits``.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await send(request, limits: limits)
    }

    /// Sends `request` under `limits` (never looser than ``limits``).
    ///
    /// - Throws: `insecure_endpoint` before sending anything to a URL that is not https (or loopback-IP http).
    public func send(_ request: URLRequest, limits: HTTPRequestLimits) async throws -> (Data, HTTPURLResponse) {
        guard let url = request.url else {
            throw AuthError(.insecureEndpoint, "A request without a URL cannot be sent.")
        }
        try url.requireSecureEndpoint("request URL")
        let effective = HTTPRequestLimits(
            maximumResponseSize: min(limits.maximumResponseSize, self.limits.maximumResponseSize),
            timeout: min(limits.timeout, self.limits.timeout)
        )
        return try await base.send(request, limits: effective)
    }
}
