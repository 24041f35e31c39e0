/**
 * The workflow interceptors decide whether a run is traced by the header Temporal's OpenTelemetry
 * interceptors write; their copy of its name must be Temporal's.
 */
import { TRACE_HEADER as TEMPORAL_TRACE_HEADER } from '@temporalio/interceptors-opentelemetry/lib/instrumentation';
import { TRACE_HEADER } from '../../workflows/telemetry/run-tracing';

test("Cairn's trace header name is the one Temporal's OpenTelemetry interceptors write", () => {
  expect(TRACE_HEADER).toBe(TEMPORAL_TRACE_HEADER);
});
