import Foundation

extension AuthClient {
    /// For a step-up sign-in (``SignInOptions/stepUp``): the ID token must be there and name the signed-in user
    /// (``SignInOptions/expectedSubject``). Checked before anything is stored.
    ///
    /// - Throws: `step_up_not_satisfied` without an ID token (nothing says how the user authenticated);
    ///   `subject_mismatch` when another user authenticated.
    func checkStepUpIdentity(_ claims: IDTokenClaims?, options: SignInOptions) throws {
        guard options.stepUp != nil else { return }
        guard let claims else {
            throw AuthError(.stepUpNotSatisfied, "The step-up sign-in returned no ID token, so nothing says how the user authenticated.")
        }
        if let expected = options.expectedSubject, claims.subject != expected {
            throw AuthError(.subjectMismatch, "The step-up sign-in authenticated another user than the signed-in one.")
        }
    }
}
