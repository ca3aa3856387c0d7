// What OpenTelemetry's standard variables do in the gateway (config.ts, otelSchema): their part of the
// settings tables ([Tracing](operations.md#tracing) lists them on their own).
import type { OtelVariable } from '../config.js'
import type { Setting } from './settings.js'

const none = 'none: no export (trace context is still propagated)'

export const OTEL_SETTINGS: Record<OtelVariable, Setting> = {
  OTEL_SDK_DISABLED: { meaning: '`true` turns the export off with an endpoint set.', unset: '`false`' },
  OTEL_TRACES_EXPORTER: { meaning: '`none` turns the export off with an endpoint set.', unset: '`otlp`' },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    meaning:
      'Base URL of an OTLP/HTTP receiver (`http://otel-collector:4318`); spans go to `<it>/v1/traces`.',
    unset: none,
  },
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: {
    meaning: 'The full traces URL, used as given; wins over `OTEL_EXPORTER_OTLP_ENDPOINT`.',
    unset: none,
  },
  OTEL_EXPORTER_OTLP_PROTOCOL: {
    meaning:
      "Only `http/json` is supported (the OpenTelemetry Collector's `otlp` receiver takes it on its HTTP port).",
    unset: '`http/json`',
  },
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: { meaning: 'The same, for traces only.', unset: '`http/json`' },
  OTEL_EXPORTER_OTLP_HEADERS: {
    meaning: "`key=value,...` (values URL-encoded) sent with every export, for a vendor's key. Never logged.",
  },
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: { meaning: 'The same, for traces only; added to the previous ones.' },
  OTEL_SERVICE_NAME: {
    meaning: 'The `service.name` of the spans.',
    unset: '`service.name` of `OTEL_RESOURCE_ATTRIBUTES`, else `swap-gateway`',
  },
  OTEL_RESOURCE_ATTRIBUTES: {
    meaning:
      'More resource attributes, `key=value,...` (`deployment.environment=production,service.instance.id=$FLY_MACHINE_ID`).',
  },
  OTEL_TRACES_SAMPLER: {
    meaning:
      "`always_on`, `always_off`, `traceidratio`, `parentbased_always_on`, `parentbased_always_off`, `parentbased_traceidratio`. The parent-based ones follow the client's sampled flag.",
  },
  OTEL_TRACES_SAMPLER_ARG: {
    meaning: 'The ratio (0 to 1) of the `traceidratio` samplers.',
    unset: '`1`',
  },
}
