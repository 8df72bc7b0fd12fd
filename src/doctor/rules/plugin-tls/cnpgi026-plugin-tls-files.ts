/*
 * CNPGI026: the files the plugin's TLS flags read, against the Secrets the annotations name.
 */
import { resolveFile } from '../../../manifests/pod-template';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { PLUGIN_KEYS } from '../../model/plugin-services';
import { MACHINERY_TLS, RECONCILE, tlsContainers } from './tls-wiring';

/** The plugin's TLS flags read another Secret or key than the annotations name, or no Secret. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI026',
  name: 'plugin-tls-files',
  severities: [
    { severity: 'error', when: 'a flag reads a key of another Secret than the annotated one, or the wrong key' },
    { severity: 'warning', when: 'a flag reads a file that no Secret volume provides, or trusts a third Secret' },
  ],
  what: "The plugin's `--server-cert` / `--server-key` / `--client-cert` read a different Secret or key than the annotations name, or a file no Secret mounts (warning).",
  why: `The operator pins the server Secret's \`tls.crt\` and presents the client Secret's pair (${RECONCILE}); the plugin serves \`--server-cert\`/\`--server-key\` and trusts \`--client-cert\` (${MACHINERY_TLS}), so it must serve the one and trust the other.`,
  fix: 'Mount the server Secret and pass its `tls.crt` / `tls.key`; mount the client Secret and pass its `ca.crt`.',
  kinds: ['Deployment', 'StatefulSet', 'DaemonSet', 'Pod'],
  check(model, report) {
    for (const info of model.pluginServices) {
      for (const t of info.templates) {
        const owner = t.owner;
        for (const tc of tlsContainers(model, t)) {
          const { c, path, where } = tc;
          for (const [flag, file, expectKey] of [
            ['server-cert', tc.serverCert, 'tls.crt'],
            ['server-key', tc.serverKey, 'tls.key'],
          ] as const) {
            if (file === undefined || !info.serverSecret) continue;
            const src = resolveFile(t.spec, c.container, file);
            if (src.type !== 'secret') {
              report(
                'warning',
                owner,
                `${where} serves --${flag}=${file}, which no Secret volume provides; the operator trusts only the server Secret '${info.serverSecret}' tls.crt`,
                `mount Secret '${info.serverSecret}' and pass its ${expectKey}`,
                path,
              );
            } else if (src.secretName !== info.serverSecret || src.key !== expectKey) {
              report(
                'error',
                owner,
                `${where} serves --${flag}=${file}, which is key '${src.key}' of Secret '${src.secretName}', but it must be ${expectKey} of the server Secret '${info.serverSecret}' (\`${PLUGIN_KEYS.serverSecret}\`), whose tls.crt the operator pins`,
                `pass --${flag}=<mount of '${info.serverSecret}'>/${expectKey}`,
                path,
              );
            }
          }
          const file = tc.clientCert;
          if (file === undefined || !info.clientSecret) continue;
          const src = resolveFile(t.spec, c.container, file);
          if (src.type !== 'secret') {
            report(
              'warning',
              owner,
              `${where} trusts --client-cert=${file}, which no Secret volume provides; it must hold the CA of the operator's client certificate (Secret '${info.clientSecret}')`,
              `mount Secret '${info.clientSecret}' and pass its ca.crt`,
              path,
            );
          } else if (src.secretName === info.serverSecret && src.secretName !== info.clientSecret) {
            report(
              'error',
              owner,
              `${where} trusts --client-cert=${file} from the server Secret '${src.secretName}'; the operator presents the client Secret '${info.clientSecret}', so the handshake fails`,
              `pass --client-cert=<mount of '${info.clientSecret}'>/ca.crt`,
              path,
            );
          } else if (src.secretName !== info.clientSecret) {
            // a self-signed client certificate trusted through another Secret is CNPGI112's error
            if (model.clientIssuance(info.clientSecret, info.service.namespace ?? '').kind !== 'self-signed') {
              report(
                'warning',
                owner,
                `${where} trusts --client-cert=${file} from Secret '${src.secretName}', not the client Secret '${info.clientSecret}'; it works only if that file holds the CA that issued the operator's client certificate`,
                `pass --client-cert=<mount of '${info.clientSecret}'>/ca.crt`,
                path,
              );
            }
          } else if (src.key === 'tls.key') {
            report(
              'error',
              owner,
              `${where} passes the client private key (tls.key) as --client-cert`,
              `pass --client-cert=<mount of '${info.clientSecret}'>/ca.crt`,
              path,
            );
          }
          // tls.crt of the client Secret itself: CNPGI025 judges it by how the certificate is issued
        }
      }
    }
  },
};
