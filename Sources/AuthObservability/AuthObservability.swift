// Without the "Observability" trait this module is empty: enable the trait on the package dependency to get
// `AuthClient.Instrumentation.observability()` (see ObservabilityInstrumentation.swift).
