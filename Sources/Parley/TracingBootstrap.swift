import Logging
import OTel
import ParleyContainer
import ServiceLifecycle
import Traced

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
    // Parley picks the operations that start a trace (`Traced`, PARLEY_TRACING_SAMPLE_RATIO); the
    // tracer keeps those and follows a caller's sampled flag. OTEL_TRACES_SAMPLER overrides it.
    configuration.traces.sampler = .parentBasedAlwaysOn
    Traced.startTraces(ratio: config.tracingSampleRatio)
    configuration.diagnosticLogger = .custom(logger)
    let service = try OTel.bootstrap(configuration: configuration)
    logger.info("tracing on (OTLP/HTTP)")
    return [service]
}
