public import Foundation

/// What a route requires of the signed-in user's authentication: an authentication context class (`acr`) among a set,
/// an authentication no older than some seconds, or both. A session that falls short is sent through a step-up
/// sign-in (``WebSignInCore/requireAuthentication(_:request:)``), as RFC 9470 §4 has a client do for a resource.
public struct WebAuthenticationRequirement: Sendable, Hashable {
    /// The `acr` values the route accepts, in order of preference (sent as the step-up's `acr_values`, essential);
    /// empty: any class.
    public var acrValues: [String]
    /// How many seconds ago, at most, the user may have authenticated (the step-up's `max_age`); `nil`: any age.
    public var maxAge: Int?

    /// Creates a requirement; with neither an `acr` nor a `maxAge` every signed-in session meets it.
    public init(acrValues: [String] = [], maxAge: Int? = nil) {
        self.acrValues = acrValues
        self.maxAge = maxAge
    }

    /// Whether `record`'s authentication meets this requirement at `now`, allowing `clockSkew` on its age (the
    /// tolerance the step-up sign-in's own check allows, so a step-up that passed it is never sent round again).
    public func isMet(by record: WebSessionRecord, now: Date, clockSkew: TimeInterval = 60) -> Bool {
        if !acrValues.isEmpty {
            guard let acr = record.authenticationClass, acrValues.contains(acr) else { return false }
        }
        if let maxAge {
            guard let authenticatedAt = record.authenticatedAt, now.timeIntervalSince(authenticatedAt) <= TimeInterval(maxAge) + clockSkew else { return false }
        }
        return true
    }
}
