import Foundation

/// The sign-ins one client is waiting for (``PendingSignIn``), keyed by `state`.
///
/// Each state is consumed exactly once: the first response with it takes it out, so a replayed response
/// finds nothing. Expired entries are dropped.
actor PendingSignInStore {
    private var entries: [String: PendingSignIn] = [:]
    /// Caller-chosen states already used, oldest first, so none is accepted twice (bounded: an app choosing
    /// states is an unusual path, and the bound only limits how far back reuse is caught).
    private var usedCallerStates: [String] = []
    private static let usedCallerStateMemory = 1024
    /// Expired entries are swept when the table reaches this size, which then doubles from what is left: each
    /// insert costs O(1) amortized (sweeping on every insert made preparing a sign-in O(n) in pending sign-ins).
    private var sweepAt = PendingSignInStore.minimumSweepSize
    private static let minimumSweepSize = 64

    /// Records a caller-chosen state; `false` when it is pending or was used before.
    func reserveCallerState(_ state: String) -> Bool {
        guard entries[state] == nil, !usedCallerStates.contains(state) else { return false }
        usedCallerStates.append(state)
        if usedCallerStates.count > Self.usedCallerStateMemory { usedCallerStates.removeFirst() }
        return true
    }

    func insert(_ pending: PendingSignIn, now: Date) {
        if entries.count >= sweepAt {
            entries = entries.filter { $0.value.expiresAt > now }
            sweepAt = max(Self.minimumSweepSize, entries.count * 2)
        }
        entries[pending.state] = pending
    }

    /// How many entries are held, expired ones not yet swept included (for tests).
    var count: Int { entries.count }

    /// Removes and returns the one unexpired entry for `redirectURI`, when exactly one is pending (a callback
    /// without `state` is attributed to it only then).
    func consumeOnly(redirect: URL, now: Date) -> PendingSignIn? {
        let matching = entries.values.filter {
            $0.expiresAt > now && AuthorizationResponse.redirect(redirect, matches: $0.redirectURI)
        }
        // Without `state`, PKCE is the only CSRF protection left: a login without it is never a candidate.
        guard matching.allSatisfy({ $0.codeVerifier != nil }) else { return nil }
        guard matching.count == 1, let pending = matching.first else { return nil }
        entries[pending.state] = nil
        return pending
    }

    /// Forgets the entry for `state` (a login that was abandoned before any response).
    func remove(state: String) {
        entries[state] = nil
    }

    /// Removes and returns the entry for `state` if it exists and has not expired.
    func consume(state: String, now: Date) -> PendingSignIn? {
        guard let pending = entries.removeValue(forKey: state), pending.expiresAt > now else { return nil }
        return pending
    }
}
