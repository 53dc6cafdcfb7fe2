package import Foundation
package import HTTPTypes

/// The transport an ``AuthClient`` hands out (``AuthClient/transport``): the app's transport behind the rules
/// every request of the engine, a ``Session`` or a provider's own endpoint must follow.
///
/// - the URL must be `https`, or `http` on a loopback IP literal (`insecure_endpoint`, checked before anything is
///   sent — so a bearer token or client secret never leaves over cleartext);
/// - the body is capped and the exchange has one deadline (``HTTPRequestLimits``), enforced by the wrapped
///   transport while the body arrives and checked here again, so a transport that ignores them cannot hold the
///   caller past the deadline or hand the engine an oversized body.
package struct GuardedTransport: HTTPTransport {
    /// The transport that actually sends.
    package let base: any HTTPTransport
    /// The limits applied to every request sent through ``send(_:body:)``.
    package let limits: HTTPRequestLimits

    /// Wraps `base`; wrapping a `GuardedTransport` again replaces its limits rather than nesting.
    package init(_ base: any HTTPTransport, limits: HTTPRequestLimits) {
        self.base = (base as? GuardedTransport)?.base ?? base
        self.limits = limits
    }

    /// Sends `request` under ``limits``.
    package func send(_ request: HTTPRequest, body: Data? = nil) async throws -> (Data, HTTPResponse) {
        try await send(request, body: body, limits: limits)
    }

    /// Sends `request` under `limits` (never looser than ``limits``).
    ///
    /// - Throws: `insecure_endpoint` before sending anything to a URL that is not https (or loopback-IP http).
    package func send(_ request: HTTPRequest, body: Data?, limits: HTTPRequestLimits) async throws -> (Data, HTTPResponse) {
        guard let url = request.url else {
            throw AuthError(.insecureEndpoint, "A request without a scheme, authority and path cannot be sent.")
        }
        try url.requireSecureEndpoint("request URL")
        let effective = HTTPRequestLimits(
            maximumResponseSize: min(limits.maximumResponseSize, self.limits.maximumResponseSize),
            timeout: min(limits.timeout, self.limits.timeout)
        )
        // The transport enforces the limits while the body arrives; this is the seam's backstop for one that does
        // not (a custom transport): the wait ends at the deadline even if it ignores cancellation, and an
        // oversized body is refused before the engine reads it.
        let base = base
        let (data, response) = try await withDeadline(effective.timeout, onTimeout: { AuthError.requestTimedOut(request, effective) }) {
            try await base.send(request, body: body, limits: effective)
        }
        guard data.count <= effective.maximumResponseSize else { throw AuthError.responseTooLarge(request, effective) }
        return (data, response)
    }
}
