/*
 * CNPGI064: the ports of Services.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { AM, reportSchemaIssues } from './schema-rules';

/** A Service port is not a port number, or a string `targetPort` is not a port name. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI064',
  name: 'service-port-value',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'A Service port is not a TCP port number, or a string `targetPort` is not a port name (IANA_SVC_NAME), e.g. `"9090"` written as a string.',
  why: `The API server refuses the Service (kubernetes v1.32 pkg/apis/core/validation/validation.go validateServicePort, ${AM} pkg/util/validation/validation.go IsValidPortName/IsValidPortNum); a quoted number is read as a port name, never as a number.`,
  fix: "Write the port as a number from 1 to 65535, or use the container port's name.",
  kinds: ['Service'],
  check(model, report) {
    reportSchemaIssues(model, 'CNPGI064', report);
  },
};
