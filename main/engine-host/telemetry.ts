/**
 * OpenTelemetry metrics export for a thread that hosts the engine (an engine thread, the job thread). The engine
 * records through the OpenTelemetry API only (engine/jobs/metrics.ts, engine/assurance/health-metrics.ts), a no-op
 * until a meter provider is registered; this registers one when the standard OTLP environment names an endpoint
 * (OTEL_EXPORTER_OTLP_METRICS_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT with /v1/metrics added), exporting over
 * OTLP/HTTP as JSON every OTEL_METRIC_EXPORT_INTERVAL milliseconds (default 60,000), each export bounded by the
 * exporter's deadline (OTEL_EXPORTER_OTLP_TIMEOUT, default 10 s). Headers for the collector
 * (OTEL_EXPORTER_OTLP_HEADERS) go to that endpoint only and are never logged. Each thread is its own instance
 * (service.instance.id), so two threads' counters are never summed as one stream.
 */

/**
 * Starts the export when configured; answers a function that flushes and stops it (undefined when not configured).
 * The SDK is loaded only then.
 */
export async function startMetricsExport(
  thread: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<(() => Promise<void>) | undefined> {
  const endpoint = env['OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'] ?? env['OTEL_EXPORTER_OTLP_ENDPOINT'];
  if (endpoint === undefined || endpoint.trim() === '' || env['OTEL_SDK_DISABLED'] === 'true') return undefined;
  const { exportMetrics } = await import('./telemetry-export.ts');
  return exportMetrics(thread, env);
}
