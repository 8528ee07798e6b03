import { FormField } from '../../components/form-field';
import type { SectionProps } from './connection-fields';

/**
 * EGRESS: the connection's own outbound HTTP proxy. A stored URL comes back masked (`***` for its
 * credentials); saving the masked text unchanged keeps the stored one, clearing it sends directly.
 */
export function OutboundProxyField({ form, errors, update }: SectionProps) {
  const seen = form.egressIp === null ? '' : ` Last seen leaving from ${form.egressIp}.`;
  return (
    <FormField
      id="conn-outbound-proxy"
      label="Outbound proxy"
      error={errors.outboundProxyUrl}
      hint={`Empty: direct. An http(s) proxy such as http://user:password@host:8080 gives this connection its own IP.${seen}`}
    >
      {(aria) => (
        <input
          {...aria}
          type="text"
          autoComplete="off"
          spellCheck={false}
          value={form.outboundProxyUrl}
          placeholder="direct"
          onChange={(e) => update({ outboundProxyUrl: e.target.value })}
        />
      )}
    </FormField>
  );
}
