/// `PARLEY_TRACING`: OpenTelemetry traces over OTLP/HTTP (issue 37), off by default;
/// `PARLEY_TRACING_SAMPLE_RATIO` (0…1, default 0.01): the share of requests (and event batches,
/// deliveries without a traced origin) that start a trace; a caller's sampled `traceparent` is
/// always followed. Where traces go is the standard OTEL_* variables (`OTEL_EXPORTER_OTLP_ENDPOINT`,
/// `OTEL_SERVICE_NAME`, `OTEL_BSP_SCHEDULE_DELAY`; `OTEL_TRACES_SAMPLER` filters further).
extension Config {
    static func readTracing(into config: inout Config, _ reader: EnvironmentReader) throws {
        config.tracing = try reader.bool("PARLEY_TRACING", default: false)
        if let text = reader.environment["PARLEY_TRACING_SAMPLE_RATIO"], !text.isEmpty {
            guard let ratio = Double(text), (0...1).contains(ratio) else {
                throw ConfigError("PARLEY_TRACING_SAMPLE_RATIO must be a number from 0 to 1, not \"\(text)\".")
            }
            config.tracingSampleRatio = ratio
        }
    }
}
