/// Registrations in memory, for tests and short-lived processes.
public actor InMemoryRegistrationStorage: RegistrationStorage {
    private var registrations: [String: DynamicRegistration] = [:]

    /// Creates an empty store.
    public init() {}

    /// Saves `registration`, replacing the issuer's previous one.
    public func save(_ registration: DynamicRegistration) {
        registrations[registration.issuer] = registration
    }

    /// The registration kept for `issuer`, if any.
    public func registration(forIssuer issuer: String) -> DynamicRegistration? {
        registrations[issuer]
    }

    /// Forgets the registration kept for `issuer`.
    public func removeRegistration(forIssuer issuer: String) {
        registrations[issuer] = nil
    }

    /// How many registrations are kept.
    public var count: Int { registrations.count }
}
