import AuthCore
import Foundation

extension TestIdentityProvider {
    /// A device sign-in (RFC 8628) the provider has handed out.
    struct DeviceGrant: Sendable {
        enum Status: Sendable {
            case pending
            case approved(User)
            case denied, redeemed
        }
        let clientID: String
        let scope: String
        let userCode: String
        let expiresAt: Date
        var status: Status = .pending
    }

    /// Approves the device sign-in with `userCode` as the configured user (what the verification page does).
    ///
    /// - Returns: whether a pending sign-in had that code.
    @discardableResult
    public func approveDevice(userCode: String) -> Bool {
        answerDevice(userCode: userCode, with: .approved(user))
    }

    /// Approves the device sign-in with `userCode` as `approver` (the account signed in on the verification page).
    package func approveDevice(userCode: String, as approver: User) -> Bool {
        answerDevice(userCode: userCode, with: .approved(approver))
    }

    /// Declines the device sign-in with `userCode` (the page's "Deny").
    @discardableResult
    public func denyDevice(userCode: String) -> Bool {
        answerDevice(userCode: userCode, with: .denied)
    }

    private func answerDevice(userCode: String, with status: DeviceGrant.Status) -> Bool {
        let normalized = Self.normalizedUserCode(userCode)
        guard let (code, grant) = deviceGrants.first(where: { $0.value.userCode == normalized }), case .pending = grant.status,
            grant.expiresAt > clock.now()
        else { return false }
        deviceGrants[code]?.status = status
        return true
    }

    /// `POST /device_authorization`: a device code, a user code (`XXXX-XXXX` from an alphabet without look-alikes)
    /// and the verification URIs.
    func deviceAuthorization(_ request: CapturedRequest, url: URL) -> (Data, HTTPResponse) {
        let form = formParameters(request)
        let client: Client
        switch authenticateClient(request, form: form) {
        case .success(let authenticated): client = authenticated
        case .failure(let failure): return clientAuthenticationError(failure, url: url)
        }
        let deviceCode = issue("dc")
        let alphabet = Array("BCDFGHJKLMNPQRSTVWXZ")
        let letters = (0..<8).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] }
        let userCode = String(letters[0..<4]) + "-" + String(letters[4...])
        let lifetime = behavior.deviceCodeLifetime
        deviceGrants[deviceCode] = DeviceGrant(
            clientID: client.id, scope: form["scope"] ?? "", userCode: userCode, expiresAt: clock.now().addingTimeInterval(lifetime))
        let verification = endpoint(configuration.paths.deviceVerification)
        return json(
            [
                "device_code": .string(deviceCode), "user_code": .string(userCode),
                "verification_uri": .string(verification.absoluteString),
                "verification_uri_complete": .string(verification.appendingQuery([("user_code", userCode)]).absoluteString),
                "expires_in": .number(lifetime), "interval": .number(Double(behavior.devicePollInterval))
            ], url: url, headers: ["Cache-Control": "no-store"])
    }

    /// The token request with `grant_type=urn:ietf:params:oauth:grant-type:device_code` (RFC 8628 §3.4–3.5).
    func redeemDeviceCode(_ form: [String: String], client: Client, url: URL) -> (Data, HTTPResponse) {
        guard let code = form["device_code"], let grant = deviceGrants[code], grant.clientID == client.id else {
            return oauthError("invalid_grant", url: url)
        }
        if behavior.deviceSlowDowns > 0 {
            update { $0.deviceSlowDowns -= 1 }
            return oauthError("slow_down", url: url)
        }
        guard grant.expiresAt > clock.now() else { return oauthError("expired_token", url: url) }
        switch grant.status {
        case .pending: return oauthError("authorization_pending", url: url)
        case .denied: return oauthError("access_denied", url: url)
        case .redeemed: return oauthError("invalid_grant", description: "device code already used", url: url)
        case .approved(let approver):
            deviceGrants[code]?.status = .redeemed
            setUser(approver)
            let family = issue("family")
            familyClaims[family] = [:]
            familyParameters[family] = ["scope": grant.scope]
            return tokenResponse(
                client: client, scope: grant.scope, family: family, nonce: nil,
                includeRefresh: configuration.issuesRefreshTokens, url: url)
        }
    }

    /// Upper case, without spaces; the hyphen is optional when typed.
    static func normalizedUserCode(_ code: String) -> String {
        let letters = code.uppercased().filter { $0.isLetter }
        return letters.count == 8 ? String(letters.prefix(4)) + "-" + String(letters.suffix(4)) : code.uppercased()
    }
}
