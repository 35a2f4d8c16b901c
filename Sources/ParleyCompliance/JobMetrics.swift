import Metrics

/// Background jobs on `/metrics`: how each kind's runs end on this instance, and how long they
/// take. Kinds are the handlers' own names (a fixed set), never a job's id or parameters.
enum JobMetrics {
    /// How a run ended: `done`; `retried` (it failed and is due again after the retry delay);
    /// `failed` (it failed its last attempt and was given up); `deferred` (its handler asked to
    /// wait, an announcement's daily pause); `lost` (another instance holds it now).
    enum Outcome: String, CaseIterable {
        case done, retried, failed, deferred, lost
    }

    static func finished(_ kind: String, _ outcome: Outcome) -> Counter {
        Counter(label: "parley_jobs_finished_total", dimensions: [("kind", kind), ("outcome", outcome.rawValue)])
    }

    /// From the claim to the end of the run (a run goes on from the last batch saved).
    static func duration(_ kind: String) -> Timer {
        Timer(label: "parley_job_run_seconds", dimensions: [("kind", kind)])
    }

    /// Makes each kind's counters at 0 when the runner starts, so that `rate()` and `increase()`
    /// see a kind's first failure, and its run time's histogram (empty) for the dashboard.
    static func prepare(kinds: some Sequence<String>) {
        for kind in kinds {
            for outcome in Outcome.allCases { _ = finished(kind, outcome) }
            _ = duration(kind)
        }
    }
}
