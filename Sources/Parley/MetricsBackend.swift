import Metrics
import Prometheus

/// Bootstraps swift-metrics with a Prometheus registry, which `GET /metrics` renders. Called once,
/// before anything records a metric (a metric made earlier would record nowhere).
func bootstrapMetrics() -> PrometheusCollectorRegistry {
    let registry = PrometheusCollectorRegistry()
    var factory = PrometheusMetricsFactory(registry: registry)
    // Waits for a connection and thumbnails are far from the request latencies of the default buckets.
    factory.durationHistogramBuckets["parley_db_connection_wait_seconds"] = [
        .microseconds(100), .milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500),
        .seconds(1), .seconds(5)
    ]
    factory.durationHistogramBuckets["parley_thumbnail_seconds"] = [
        .milliseconds(10), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
        .seconds(2), .seconds(5), .seconds(10), .seconds(30)
    ]
    // From a message's commit to its push's answer: seconds normally, up to the 10-minute limit.
    factory.durationHistogramBuckets["parley_push_latency_seconds"] = [
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .milliseconds(750),
        .seconds(1), .seconds(2), .seconds(5), .seconds(30), .seconds(120), .seconds(600)
    ]
    // A job's run: a sweep of an empty table in milliseconds, an export or an erasure in minutes.
    factory.durationHistogramBuckets["parley_job_run_seconds"] = [
        .milliseconds(100), .seconds(1), .seconds(5), .seconds(30), .seconds(60), .seconds(300), .seconds(900), .seconds(3600)
    ]
    factory.valueHistogramBuckets["parley_db_pipeline_batch_size"] = [1, 2, 4, 8, 16, 32]
    factory.valueHistogramBuckets["parley_shared_transaction_calls"] = [1, 2, 4, 8, 16]
    MetricsSystem.bootstrap(factory)
    return registry
}
