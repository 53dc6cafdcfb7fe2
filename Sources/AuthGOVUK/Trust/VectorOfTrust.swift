public import AuthCore

/// One vector of trust from GOV.UK One Login's trust framework, such as `Cl.Cm` or `Cl.Cm.P2`: how strongly the
/// user authenticated (credential trust) and, optionally, how confident GOV.UK is in their identity (level of
/// confidence).
///
/// A service asks for a list of alternatives in `vtr` (`["Cl.Cm.P2"]`). The ID token's `vot` states the credential
/// trust achieved; the core identity JWT's `vot` the level of confidence achieved. Both are compared with the request
/// here, and a lower level is an error, never a silent downgrade.
public struct VectorOfTrust: Sendable, Hashable, CustomStringConvertible {
    /// How strongly the user authenticated.
    public enum CredentialTrust: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
        /// `Cl`: a password (low).
        case low = 1
        /// `Cl.Cm`: a password and a second factor (medium).
        case medium = 2

        /// `Cl` or `Cl.Cm`.
        public var description: String { self == .low ? "Cl" : "Cl.Cm" }

        /// Lower levels first.
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// How confident GOV.UK One Login is in the user's identity (`P0` none … `P3` high).
    public enum LevelOfConfidence: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
        /// `P0`: no identity checks.
        case p0 = 0
        /// `P1`: low confidence.
        case p1 = 1
        /// `P2`: medium confidence.
        case p2 = 2
        /// `P3`: high confidence.
        case p3 = 3

        /// Reads `P0` … `P3`.
        public init?(text: some StringProtocol) {
            guard text.count == 2, text.first == "P", let digit = text.last?.wholeNumberValue, let level = Self(rawValue: digit) else {
                return nil
            }
            self = level
        }

        /// `P0` … `P3`.
        public var description: String { "P\(rawValue)" }

        /// Lower levels first.
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The credential trust.
    public let credentialTrust: CredentialTrust
    /// The level of confidence, when the vector has one.
    public let levelOfConfidence: LevelOfConfidence?

    /// Creates a vector.
    public init(_ credentialTrust: CredentialTrust, _ levelOfConfidence: LevelOfConfidence? = nil) {
        self.credentialTrust = credentialTrust
        self.levelOfConfidence = levelOfConfidence
    }

    /// Parses a vector such as `Cl.Cm.P2` with GOV.UK One Login's rules: the credential components `Cl` or `Cl` and
    /// `Cm` (in any order), at most one level of confidence `P0`…`P3`, and identity (`P1` and above) only with `Cl.Cm`.
    ///
    /// - Throws: `invalid_configuration` naming the vector and what is wrong with it.
    public init(parsing text: String) throws {
        let components = text.split(separator: ".", omittingEmptySubsequences: false)
        let credentials = Set(components.filter { $0.hasPrefix("C") }.map(String.init))
        let levels = components.filter { $0.hasPrefix("P") }
        func refuse(_ problem: String) -> AuthError {
            AuthError(.invalidConfiguration, "The vector of trust '\(text)' \(problem).", providerID: GOVUKProvider.id)
        }
        guard components.count == credentials.count + levels.count else {
            throw refuse("has a component that is neither Cl, Cm nor P0–P3")
        }
        switch credentials {
        case ["Cl"]: credentialTrust = .low
        case ["Cl", "Cm"]: credentialTrust = .medium
        default: throw refuse("needs the credential trust Cl or Cl.Cm")
        }
        guard levels.count <= 1 else { throw refuse("has more than one level of confidence") }
        if let level = levels.first {
            guard let parsed = LevelOfConfidence(text: level) else { throw refuse("has the unknown level of confidence \(level)") }
            levelOfConfidence = parsed
        } else {
            levelOfConfidence = nil
        }
        if requestsIdentity && credentialTrust != .medium {
            throw refuse("asks for identity (P1 or above) without Cl.Cm; GOV.UK One Login refuses that")
        }
    }

    /// Whether the vector asks for an identity check (`P1` or above).
    public var requestsIdentity: Bool { (levelOfConfidence ?? .p0) > .p0 }

    /// `Cl.Cm.P2` style text.
    public var description: String {
        [credentialTrust.description, levelOfConfidence?.description].compactMap { $0 }.joined(separator: ".")
    }

    /// The `vtr` parameter for a list of alternatives: JSON array text (`["Cl.Cm.P2"]`).
    public static func parameter(for vectors: [VectorOfTrust]) -> String {
        "[" + vectors.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }

    /// Checks an ID token's `vot` (the credential trust achieved) against the requested alternatives: it must reach
    /// the credential trust of at least one of them.
    ///
    /// - Throws: `vot_not_satisfied` when `vot` is missing (and `required`), unreadable, or lower than every
    ///   requested alternative.
    public static func checkIDTokenVot(_ vot: String?, requested: [VectorOfTrust], required: Bool) throws {
        guard let vot else {
            guard required else { return }
            throw AuthError(.vectorOfTrustNotSatisfied, "The ID token has no 'vot'; GOV.UK One Login always states the vector of trust it achieved.", providerID: GOVUKProvider.id)
        }
        guard let achieved = try? VectorOfTrust(parsing: vot) else {
            throw AuthError(.vectorOfTrustNotSatisfied, "The ID token's vot '\(vot)' is not a vector of trust.", providerID: GOVUKProvider.id)
        }
        // GOV.UK's ID tokens carry the credential trust only (the level of confidence travels in the core identity
        // JWT); should one carry a level too, it must reach the requested one as well.
        let satisfied =
            requested.isEmpty
            || requested.contains { wanted in
                achieved.credentialTrust >= wanted.credentialTrust
                    && (achieved.levelOfConfidence.map { $0 >= (wanted.levelOfConfidence ?? .p0) } ?? true)
            }
        guard satisfied else {
            throw AuthError(
                .vectorOfTrustNotSatisfied,
                "The ID token's vot '\(vot)' is below the requested \(parameter(for: requested)); the sign-in is refused rather than downgraded.",
                providerID: GOVUKProvider.id
            )
        }
    }
}

extension AuthError.Code {
    /// GOV.UK One Login achieved less than the requested vector of trust: the ID token's `vot` (credential trust) or
    /// the core identity JWT's `vot` (level of confidence) is below every requested alternative.
    public static let vectorOfTrustNotSatisfied: Self = "vot_not_satisfied"
    /// A GOV.UK One Login identity claim is not in the documented shape (for example a core identity JWT without
    /// `vc.credentialSubject`, or a claim that is not a JSON array).
    public static let malformedIdentityClaim: Self = "malformed_identity_claim"
}
