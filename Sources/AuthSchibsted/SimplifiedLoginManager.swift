public import AuthCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Simplified login: offer the account already logged in to another app of the same vendor.
///
/// The vendor's apps share one storage (a Keychain access group on Apple platforms). The most recently updated
/// session of the same environment — from any of the vendor's client ids — is offered; continuing asks the
/// server for a one-time `assertion` with that session and logs in to this client with it.
public struct SimplifiedLoginManager: Sendable {
    private let client: SchibstedAccountClient
    private let sharedStorage: any TokenStorage

    /// Creates a manager over the vendor's shared storage.
    public init(client: SchibstedAccountClient, sharedStorage: any TokenStorage) {
        self.client = client
        self.sharedStorage = sharedStorage
    }

    /// The most recently updated session in the shared storage for this environment, if any.
    public func latestSession() async throws -> Credential? {
        let issuer = client.configuration.issuer
        var latest: Credential?
        for key in try await sharedStorage.storedKeys() where key.providerID == SchibstedProvider.id && key.issuer == issuer {
            guard let credential = try? await sharedStorage.credential(for: key) else { continue }
            if latest.map({ credential.updatedAt > $0.updatedAt }) ?? true { latest = credential }
        }
        return latest
    }

    /// Continues as the user of `credential`: obtains an assertion for this client and logs in with it.
    public func continueAs(_ credential: Credential, with userAgent: any UserAgent) async throws -> SchibstedUser {
        let transport = client.authClient.transport
        var request = URLRequest(url: client.configuration.environment.endpoint("/api/2/oauth/exchange"))
        request.httpMethod = "POST"
        request.setValue("Bearer \(credential.accessToken.reveal())", forHTTPHeaderField: "Authorization")
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(FormEncoding.encode([("type", "code"), ("clientId", client.configuration.clientId)]).utf8)
        let (data, response) = try await transport.send(request)
        guard response.statusCode == 200, let assertion = (try? JSONValue.parseObject(data))?["data"]?["code"]?.stringValue else {
            throw AuthError(.authorizationFailed, "The shared session could not be used (HTTP \(response.statusCode)); log in normally.", providerID: SchibstedProvider.id, httpStatus: response.statusCode)
        }
        let login = try await client.authClient.prepareSignIn(options: SignInOptions(additionalParameters: ["assertion": assertion]))
        return try await client.handleAuthenticationResponse(url: try await userAgent.authorize(login))
    }
}
