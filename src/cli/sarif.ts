/*
 * SARIF 2.1.0 output (https://docs.oasis-open.org/sarif/sarif/v2.1.0/), for GitHub code
 * scanning and other CI tools: one `rule` per registry entry, one `result` per finding, located
 * at the line and column where its object's document starts.
 */
import * as path from 'path';
import { DOCTOR_RULES } from '../doctor/registry';
import { DoctorReport } from '../doctor/report';
import { LoadedDocument } from '../manifests/load';
import type { Finding, SuppressedFinding } from '../rules/finding';

const SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/** A file as a SARIF artifact URI: relative to `cwd`, with forward slashes. */
export function artifactUri(file: string, cwd: string): string {
  const rel = path.isAbsolute(file) ? path.relative(cwd, file) : path.normalize(file);
  return rel.split(path.sep).join('/');
}

function driver() {
  return {
    name: 'cnpg-i-doctor',
    rules: DOCTOR_RULES.map((r) => ({
      id: r.id,
      name: r.name,
      shortDescription: { text: r.what },
      fullDescription: { text: r.why },
      help: {
        text: `${r.fix}\n\n${r.severities.map((s) => `${s.severity}: ${s.when}`).join('\n')}`,
        markdown: `**Fix**: ${r.fix}\n\n${r.severities.map((s) => `- ${s.severity}: ${s.when}`).join('\n')}`,
      },
      defaultConfiguration: { level: r.severities.some((s) => s.severity === 'error') ? 'error' : 'warning' },
    })),
  };
}

function result(f: Finding | SuppressedFinding, docs: readonly LoadedDocument[], cwd: string, ruleIndex: ReadonlyMap<string, number>) {
  const d = f.index !== undefined ? docs[f.index] : undefined;
  const located = d !== undefined && d.file !== '<stdin>';
  const suppressedBy = (f as SuppressedFinding).suppressedBy;
  return {
    ruleId: f.ruleId,
    ruleIndex: ruleIndex.get(f.ruleId),
    level: f.severity,
    message: { text: `${f.object}: ${f.message}${f.path ? ` (at ${f.path})` : ''}. Fix: ${f.fix}` },
    locations: [
      {
        ...(located
          ? {
              physicalLocation: {
                artifactLocation: { uri: artifactUri(d.file, cwd) },
                region: { startLine: d.line, startColumn: d.column },
              },
            }
          : {}),
        logicalLocations: [{ fullyQualifiedName: f.path ? `${f.object}#${f.path}` : f.object, kind: 'object' }],
      },
    ],
    ...(suppressedBy
      ? {
          suppressions: [
            {
              kind: suppressedBy === 'annotation' ? 'inSource' : 'external',
              justification: suppressedBy === 'annotation' ? 'cnpg-i.dev/doctor-ignore annotation' : '--disable',
            },
          ],
        }
      : {}),
  };
}

/** The SARIF log of a report; suppressed findings are included with their `suppressions`. */
export function formatSarif(report: DoctorReport, docs: readonly LoadedDocument[], cwd: string): string {
  const ruleIndex = new Map(DOCTOR_RULES.map((r, i) => [r.id as string, i]));
  const log = {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: driver() },
        invocations: [{ executionSuccessful: true }],
        results: [...report.findings, ...report.suppressed].map((f) => result(f, docs, cwd, ruleIndex)),
        properties: { operatorNamespace: report.operatorNamespace, cnpgVersion: report.cnpgVersion, objectCount: report.objectCount },
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}

/** The SARIF log of a run that could not read its input: no results, one error notification. */
export function sarifForError(message: string, location: { file: string; line: number; column: number } | undefined, cwd: string): string {
  const log = {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: driver() },
        invocations: [
          {
            executionSuccessful: false,
            exitCode: 2,
            toolExecutionNotifications: [
              {
                level: 'error',
                message: { text: message },
                ...(location && location.file !== '<stdin>'
                  ? {
                      locations: [
                        {
                          physicalLocation: {
                            artifactLocation: { uri: artifactUri(location.file, cwd) },
                            region: { startLine: location.line, startColumn: location.column },
                          },
                        },
                      ],
                    }
                  : {}),
              },
            ],
          },
        ],
        results: [],
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}
