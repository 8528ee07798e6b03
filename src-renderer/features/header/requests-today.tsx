import { useRequestsToday } from './use-requests-today';

/** "128 requests today" in the header, live; errors in the tooltip and beside it when there are any. */
export function RequestsToday() {
  const today = useRequestsToday();
  if (today === null) return null;
  const { requestsToday: n, errorsToday: errors } = today;
  return (
    <span
      className="badge requests-today"
      data-testid="requests-today"
      data-count={n}
      title={`${n} request${n === 1 ? '' : 's'} and ${errors} error${errors === 1 ? '' : 's'} since midnight`}
    >
      {n.toLocaleString()} request{n === 1 ? '' : 's'} today
      {errors > 0 && ` · ${errors.toLocaleString()} error${errors === 1 ? '' : 's'}`}
    </span>
  );
}
