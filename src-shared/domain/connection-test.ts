/** Outcome of the "Test" button: reachability and credential, measured without spending tokens. */
export interface ConnectionTestResult {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  message: string;
  /** Model ids the upstream listed, to help fill in the connection's models. */
  models: string[];
}
