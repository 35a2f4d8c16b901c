import Logging
import OTel
import ParleyContainer
import ServiceLifecycle

/// With `PARLEY_TRACING`, the tracer every span of the process goes to (swift-otel, OTLP/HTTP,
/// batched in the background) and the service that exports and flushes it at shutdown; none
/// otherwise, and every span is a no-op. Logs and metrics stay Parley's own.
func bootstrapTracing(_ config: Config, logger: Logger) throws -> [any Service] {
    guard config.tracing else { return [] }
    var configuration = OTel.Configuration.default
    configuration.serviceName = "parley"
    configuration.logs.enabled = false
    configuration.metrics.enabled = false
    configuration.traces.enabled = true
    // 1 % of the traces that start here; a caller's sampled `traceparent` is always followed.
    // OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG override it.
    configuration.traces.sampler = .parentBasedTraceIDRatio(ratio: 0.01)!
    configuration.diagnosticLogger = .custom(logger)
    let service = try OTel.bootstrap(configuration: configuration)
    logger.info("tracing on (OTLP/HTTP)")
    return [service]
}
