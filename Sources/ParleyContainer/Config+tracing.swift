/// `PARLEY_TRACING`: OpenTelemetry traces over OTLP/HTTP (issue 37), off by default. Where they
/// go and how many are kept are the standard OTEL_* variables (`OTEL_EXPORTER_OTLP_ENDPOINT`,
/// `OTEL_TRACES_SAMPLER`, `OTEL_TRACES_SAMPLER_ARG`, `OTEL_SERVICE_NAME`); Parley's own default
/// keeps 1 % of traces, and every trace a caller's sampled `traceparent` starts.
extension Config {
    static func readTracing(into config: inout Config, _ reader: EnvironmentReader) throws {
        config.tracing = try reader.bool("PARLEY_TRACING", default: false)
    }
}
