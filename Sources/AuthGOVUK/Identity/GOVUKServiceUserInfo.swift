public import AuthCore

/// What GOV.UK One Login tells a service about its signed-in user: contact details and, when identity was requested,
/// the verified core identity and the identity claims (see `Session.govUKUserInfo()`).
public struct GOVUKServiceUserInfo: Sendable {
    /// The user (equal to the ID token's `sub`).
    public let subject: String
    /// The e-mail address (`email` scope).
    public let email: String?
    /// Whether the e-mail address is verified.
    public let emailVerified: Bool?
    /// The phone number (`phone` scope).
    public let phoneNumber: String?
    /// Whether the phone number is verified.
    public let phoneNumberVerified: Bool?
    /// The verified core identity; `nil` when it was not requested or GOV.UK could not prove the identity (then
    /// ``returnCodes`` says why, when requested).
    public let coreIdentity: CoreIdentity?
    /// Postal addresses (`address` claim), current first as GOV.UK sends them.
    public let addresses: [PostalAddress]
    /// Passports (`passport` claim).
    public let passports: [PassportDetails]
    /// Driving licences (`drivingPermit` claim).
    public let drivingPermits: [DrivingPermitDetails]
    /// Why identity could not be proved (`returnCode` claim); empty otherwise.
    public let returnCodes: [ReturnCode]
    /// Every claim as received (the core identity JWT unverified: use ``coreIdentity``).
    public let claims: UserInfoClaims
}

extension Session {
    /// User info for a GOV.UK One Login service, with the identity claims typed and the core identity JWT verified
    /// against GOV.UK's DID document (see ``CoreIdentity``).
    ///
    /// - Throws: `invalid_configuration` when the session's provider is not a ``GOVUKServiceProvider``; the errors of
    ///   `Session.userInfo()`; for the core identity JWT `unsupported_algorithm`, `missing_key_id`, `unknown_key_id`,
    ///   `invalid_signature`, `invalid_issuer`, `invalid_audience`, `subject_mismatch`, `token_expired`,
    ///   `invalid_issued_at`, `vot_not_satisfied`; `malformed_identity_claim` for a claim not in GOV.UK's shape.
    public func govUKUserInfo() async throws -> GOVUKServiceUserInfo {
        guard let provider = client.provider as? GOVUKServiceProvider else {
            throw AuthError(.invalidConfiguration, "govUKUserInfo() needs a session signed in with GOVUKServiceProvider.", providerID: providerID)
        }
        let info = try await userInfo()
        let configuration = provider.configuration
        typealias Claim = GOVUKServiceConfiguration.IdentityClaim
        var coreIdentity: CoreIdentity?
        if let value = info[Claim.coreIdentity.rawValue] {
            guard let token = value.stringValue else {
                throw AuthError(.malformedIdentityClaim, "The user info claim coreIdentityJWT is not a JWT string.", providerID: providerID)
            }
            coreIdentity = try await CoreIdentityVerifier(configuration: configuration, client: client).verify(token, subject: info.subject)
        }
        return GOVUKServiceUserInfo(
            subject: info.subject,
            email: info["email"]?.stringValue,
            emailVerified: info["email_verified"]?.boolValue,
            phoneNumber: info["phone_number"]?.stringValue,
            phoneNumberVerified: info["phone_number_verified"]?.boolValue,
            coreIdentity: coreIdentity,
            addresses: try Claim.address.objects(in: info)?.map(PostalAddress.init) ?? [],
            passports: try Claim.passport.objects(in: info)?.compactMap(PassportDetails.init) ?? [],
            drivingPermits: try Claim.drivingPermit.objects(in: info)?.compactMap(DrivingPermitDetails.init) ?? [],
            returnCodes: try Claim.returnCode.objects(in: info)?.compactMap { $0["code"]?.stringValue.map(ReturnCode.init) } ?? [],
            claims: info
        )
    }
}
