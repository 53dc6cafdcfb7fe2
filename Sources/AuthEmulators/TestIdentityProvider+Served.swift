import AuthCore
public import AuthTesting
public import Foundation

extension TestIdentityProvider {
    /// The loopback redirect every client of an emulator served over HTTP also accepts (any port, RFC 8252 §7.3):
    /// where `auth-cli login` and other native apps listen.
    public static let loopbackRedirectURI = URL(string: "http://127.0.0.1/callback")!

    /// The loopback callbacks of a web app with AuthHummingbird's routes (`/auth/<provider>/callback`, any port),
    /// which every client of an emulator served over HTTP also accepts: where the web sign-in sample listens.
    public static let loopbackWebCallbackURIs: [URL] = ["oidc", "grab", "schibsted", "uber", "onelogin", "govuk", "google", "microsoft", "github", "apple"].map {
        URL(string: "http://127.0.0.1/auth/\($0)/callback")!
    }
}

extension TestIdentityProvider {
    /// The loopback post-logout returns of a web app with the web module's routes (`/auth/<provider>/signed-out`, any
    /// port), which every client of an emulator served over HTTP has registered: where the web samples' sign-out
    /// comes back with its `state`.
    public static let loopbackWebPostLogoutURIs: [URL] = loopbackWebCallbackURIs.map {
        $0.deletingLastPathComponent().appendingPathComponent("signed-out")
    }
}

extension TestIdentityProvider.Configuration {
    /// This configuration as served over HTTP at `origin` (`http://127.0.0.1:<port>`) by `auth-emulator emulate`.
    ///
    /// The issuer and the endpoint base keep their paths on the new origin (so an issuer on another host than the
    /// endpoints, as Grab's, lands on the same one), discovery extras that named the old origins follow, every
    /// client also accepts ``TestIdentityProvider/loopbackRedirectURI`` and
    /// ``TestIdentityProvider/loopbackWebCallbackURIs`` (and ``TestIdentityProvider/loopbackWebPostLogoutURIs`` after
    /// sign-out), and valid authorization requests get the login page
    /// (``showsLoginPage``). The rules — paths, quirks, strictness — are this configuration's own: one implementation,
    /// two fronts.
    public func served(at origin: URL) -> Self {
        var served = self
        let oldOrigins = Set([issuer, endpointBase].compactMap { $0.map(Self.origin(of:)) })
        let newOrigin = Self.origin(of: origin)
        func rebase(_ url: URL) -> URL {
            URL(string: newOrigin + url.absoluteString.dropFirst(Self.origin(of: url).count)) ?? url
        }
        served.issuer = rebase(issuer)
        served.endpointBase = endpointBase.map(rebase)
        served.additionalHosts = []
        served.quirks.discoveryExtras = discoveryExtras(rebasedFrom: oldOrigins, to: newOrigin)
        served.clients = clients.map { client in
            var client = client
            client.redirectURIs.append(TestIdentityProvider.loopbackRedirectURI)
            client.redirectURIs += TestIdentityProvider.loopbackWebCallbackURIs
            client.postLogoutRedirectURIs += TestIdentityProvider.loopbackWebPostLogoutURIs
            return client
        }
        served.showsLoginPage = true
        return served
    }

    private func discoveryExtras(rebasedFrom oldOrigins: Set<String>, to newOrigin: String) -> [String: JSONValue] {
        quirks.discoveryExtras.mapValues { value in
            guard let text = value.stringValue, let old = oldOrigins.first(where: { text.hasPrefix($0 + "/") || text == $0 }) else { return value }
            return .string(newOrigin + text.dropFirst(old.count))
        }
    }

    /// `scheme://host[:port]` of `url`.
    private static func origin(of url: URL) -> String {
        let port = url.port.map { ":\($0)" } ?? ""
        return "\(url.scheme ?? "https")://\(url.host ?? "")\(port)"
    }
}
