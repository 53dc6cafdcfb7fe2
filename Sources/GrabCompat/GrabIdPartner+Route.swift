import AuthAppSupport
import AuthApple
import AuthCore
import AuthGrab
import Foundation

// Where a Grab login goes: the web, the Grab app (a deep link from the client public info), or the App Store — the
// pure decision is AuthGrab's GrabRoute; this asks the host what it can open.
extension GrabIdPartner {
    /// A step of a Grab login, tried in order by the shared hand-off loop: the Grab app, then (should it not open) the
    /// App Store link of another entry, else the web — the vendor SDK's order.
    enum Step: Sendable {
        case app(URL)
        case appStore(URL)
        case web

        static func steps(for route: GrabRoute) -> [Step] {
            switch route {
            case .web: [.web]
            case .app(let deepLink, let store): [.app(deepLink), store.map(Step.appStore) ?? .web]
            case .appStore(let store): [.appStore(store)]
            }
        }
    }

    /// The attempt for `step`; the App Store step ends the login instead (with `launchAppStoreLink`), having forgotten
    /// the authorization the user will not answer.
    func attempt(_ step: Step, request: AuthorizationRequest, client: AuthClient) async throws -> AppHandoffAttempt {
        switch step {
        case .app(let deepLink):
            client.log(.info, "grab.route", "Hand-off to the Grab app.")
            return .app(deepLink, request: request, appName: "The Grab app")
        case .web:
            client.log(.info, "grab.route", "Web login.")
            return .web(request)
        case .appStore(let store):
            await client.abandon(request)
            throw await openAppStore(store)
        }
    }

    /// Opens the App Store; the login then ends with `launchAppStoreLink` (or `failedTolaunchAppStoreLink`).
    func openAppStore(_ store: URL) async -> GrabError {
        guard let appHandoff = appLogin.appHandoff, await appHandoff.open(store) else {
            return GrabError(
                AuthError(
                    .grabAppStoreLaunchFailed, "The Grab app is not installed and the App Store could not be opened.",
                    providerID: GrabProvider.id), domain: .appStore)
        }
        return GrabError(
            AuthError(
                .grabAppStoreLaunched, "The Grab app is not installed; the App Store was opened. Log in again after installing, or cancel.",
                providerID: GrabProvider.id), domain: .appStore)
    }

    func decideRoute(_ request: AuthorizationRequest, client: AuthClient) async throws -> GrabRoute {
        let metadata = try await client.metadata()
        guard let appHandoff = appLogin.appHandoff, let template = metadata.document["client_public_info_endpoint"]?.stringValue,
            let endpoint = URL(string: template.replacingOccurrences(of: "{client_id}", with: FormEncoding.escape(client.provider.client.clientID)))
        else { return .web }
        let protocols: [GrabCustomProtocol]
        do {
            var info = HTTPRequest(method: .get, url: endpoint)
            info.headerFields.set("no-cache", forName: "Cache-Control")
            let (data, response) = try await client.transport.send(info)
            guard (200..<300).contains(response.status.code) else {
                client.log(
                    .notice, "grab.publicinfo.failed", "The client public info answered an HTTP error; logging in on the web.",
                    ["status": String(response.status.code), "grab_domain": GrabError.Domain.customProtocolsService.name])
                return .web
            }
            protocols = try GrabCustomProtocol.parse(publicInfo: data)
        } catch {
            client.log(
                .notice, "grab.publicinfo.failed", "The client public info could not be read; logging in on the web.",
                ["grab_domain": GrabError.Domain.customProtocolsService.name])
            return .web
        }
        var openable: Set<String> = []
        for entry in protocols {
            if let url = URL(string: entry.paxProtocol), await appHandoff.canOpen(url) { openable.insert(entry.paxProtocol) }
        }
        return GrabRoute.decide(
            authorizationURL: request.url, authorizationEndpoint: metadata.authorizationEndpoint,
            customProtocols: protocols, canQuery: canQuery
        ) { openable.contains($0.absoluteString) }
    }

    /// Whether the host may ask if `url`'s scheme opens (listed in `LSApplicationQueriesSchemes`, or unknown).
    func canQuery(_ url: URL) -> Bool {
        guard let queriesSchemes, let scheme = url.scheme?.lowercased() else { return true }
        return queriesSchemes.contains(scheme)
    }
}
