import AuthCore
public import Foundation

/// The user's identity as GOV.UK One Login proved it: the verified contents of the core identity JWT
/// (`https://vocab.account.gov.uk/v1/coreIdentityJWT`).
///
/// A value of this type exists only after the JWT's ES256 signature verified with the key GOV.UK publishes in its DID
/// document, and its `iss`, `aud`, `sub`, `vot` and time claims were checked (see
/// `Session.govUKUserInfo()`).
public struct CoreIdentity: Sendable, Hashable {
    /// One name the user has had; `nameParts` in order.
    public struct Name: Sendable, Hashable {
        /// One part of a name.
        public struct Part: Sendable, Hashable {
            /// `GivenName` or `FamilyName`.
            public let type: String
            /// The text, as on the user's documents (often upper case).
            public let value: String
        }

        /// The parts in order.
        public let parts: [Part]
        /// When the user started using the name (`YYYY-MM-DD`), when stated.
        public let validFrom: String?
        /// When the user stopped using it; `nil` for the current name.
        public let validUntil: String?

        /// The given names in order.
        public var givenNames: [String] { parts.filter { $0.type == "GivenName" }.map(\.value) }
        /// The family name parts joined with spaces, or `nil` without one.
        public var familyName: String? {
            let family = parts.filter { $0.type == "FamilyName" }.map(\.value)
            return family.isEmpty ? nil : family.joined(separator: " ")
        }
        /// Every part in order, joined with spaces.
        public var fullName: String { parts.map(\.value).joined(separator: " ") }
    }

    /// The user (equal to the ID token's `sub`).
    public let subject: String
    /// The level of confidence GOV.UK achieved (the JWT's `vot`).
    public let levelOfConfidence: VectorOfTrust.LevelOfConfidence
    /// The user's names, current and previous.
    public let names: [Name]
    /// The user's birth dates (`YYYY-MM-DD`; normally one).
    public let birthDates: [String]
    /// When the JWT was issued.
    public let issuedAt: Date?
    /// When the JWT expires.
    public let expiresAt: Date

    /// The current name: the one without an end date (or the first).
    public var currentName: Name? { names.first { $0.validUntil == nil } ?? names.first }
}

extension CoreIdentity {
    /// Reads the verified claims' `vc.credentialSubject`.
    ///
    /// - Throws: `malformed_identity_claim` when the credential subject, its names or birth dates are missing.
    init(verifiedClaims claims: [String: JSONValue], subject: String, level: VectorOfTrust.LevelOfConfidence) throws {
        func malformed(_ what: String) -> AuthError {
            AuthError(.malformedIdentityClaim, "The core identity JWT has no \(what).", providerID: GOVUKProvider.id)
        }
        guard let credentialSubject = claims["vc"]?["credentialSubject"]?.objectValue else { throw malformed("vc.credentialSubject") }
        guard let names = credentialSubject["name"]?.arrayValue, !names.isEmpty else { throw malformed("name") }
        self.names = try names.map { name in
            guard let parts = name["nameParts"]?.arrayValue, !parts.isEmpty else { throw malformed("nameParts in a name") }
            return Name(
                parts: try parts.map { part in
                    guard let type = part["type"]?.stringValue, let value = part["value"]?.stringValue else {
                        throw malformed("type and value in a name part")
                    }
                    return Name.Part(type: type, value: value)
                },
                validFrom: name["validFrom"]?.stringValue,
                validUntil: name["validUntil"]?.stringValue
            )
        }
        guard let birthDates = credentialSubject["birthDate"]?.arrayValue?.compactMap({ $0["value"]?.stringValue }), !birthDates.isEmpty else {
            throw malformed("birthDate")
        }
        self.birthDates = birthDates
        self.subject = subject
        self.levelOfConfidence = level
        self.issuedAt = claims["iat"]?.timestampValue
        guard let expiry = claims["exp"]?.timestampValue else { throw malformed("exp") }
        self.expiresAt = expiry
    }
}
