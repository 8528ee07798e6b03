import { FormField } from '../../components/form-field';
import type { ConnectionForm } from './connection-form';
import type { SectionProps } from './connection-fields';

const FIELDS: {
  key: keyof Pick<ConnectionForm, 'queueMaxWaitMs' | 'queueExecutionMaxWaitMs' | 'queueMaxDepth'>;
  id: string;
  label: string;
  max: number;
}[] = [
  { key: 'queueMaxWaitMs', id: 'conn-queue-wait', label: 'Queue wait (ms)', max: 86_400_000 },
  { key: 'queueExecutionMaxWaitMs', id: 'conn-queue-exec', label: 'Execution limit (ms)', max: 86_400_000 },
  { key: 'queueMaxDepth', id: 'conn-queue-depth', label: 'Max waiting requests', max: 100_000 },
];

/**
 * QUEUE-7: this connection's request-queue budgets (`rateLimitOverrides`), above Settings › Resilience
 * and the environment. They apply only with a concurrency limit, since only then is there a queue.
 */
export function QueueOverrideFields({ form, errors, update }: SectionProps) {
  return (
    <div className="field-row">
      {FIELDS.map((f, i) => (
        <FormField
          key={f.id}
          id={f.id}
          label={f.label}
          hint={i === 0 ? 'Empty: Settings › Resilience. Only with a concurrency limit.' : undefined}
          error={i === 0 ? errors.rateLimitOverrides : undefined}
        >
          {(aria) => (
            <input
              {...aria}
              type="number"
              min={0}
              max={f.max}
              step={1}
              value={form[f.key]}
              placeholder="settings"
              onChange={(e) => update({ [f.key]: e.target.value })}
            />
          )}
        </FormField>
      ))}
    </div>
  );
}
