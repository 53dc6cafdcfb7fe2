// Must NOT compile (Scripts/ci/secret-interpolation-check.sh): interpolating a Secret would send `Bearer <redacted>`.
// The line marked `expected-error` is where the compiler must report the diagnostic that follows the marker.
public import AuthCore

public func authorizationHeader(_ accessToken: Secret) -> String {
    "Bearer \(accessToken)"  // expected-error: ambiguous use of 'appendInterpolation'
}
