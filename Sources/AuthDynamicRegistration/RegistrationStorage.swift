/// Where registrations are kept, one per issuer: beside the credential store, so a provider can be built again from
/// the registration on the next run.
public protocol RegistrationStorage: Sendable {
    /// Saves `registration`, replacing the issuer's previous one.
    func save(_ registration: DynamicRegistration) async throws
    /// The registration kept for `issuer`, if any.
    func registration(forIssuer issuer: String) async throws -> DynamicRegistration?
    /// Forgets the registration kept for `issuer`.
    func removeRegistration(forIssuer issuer: String) async throws
}
