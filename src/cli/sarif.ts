/*
 * The doctor's SARIF 2.1.0 output (https://docs.oasis-open.org/sarif/sarif/v2.1.0/), written by
 * the rule engine's SARIF writer (src/rules/sarif.ts, shared with the plan): one `rule` per
 * registry entry, one `result` per finding, located at the line and column where its object's
 * document starts.
 */
import { DOCTOR_RULES } from '../doctor/registry';
import { DoctorReport } from '../doctor/report';
import { InputError, InputLocation, LoadedDocument } from '../manifests/load';
import { SarifFileLocation, SarifTool, artifactUri, sarifErrorLog, sarifLog } from '../rules/sarif';

export { artifactUri } from '../rules/sarif';

const TOOL: SarifTool = { name: 'cnpg-i-doctor', rules: DOCTOR_RULES };

/** Where a place in the input is, for SARIF; none for standard input, which has no file. */
function fileLocation(place: InputLocation | undefined, cwd: string): SarifFileLocation | undefined {
  return place && place.file !== '<stdin>' ? { uri: artifactUri(place.file, cwd), line: place.line, column: place.column } : undefined;
}

/**
 * The SARIF log of a report; suppressed findings are included with their `suppressions`, and each
 * file of `notRead` (it could not be read) is an error notification of a failed invocation.
 */
export function formatSarif(report: DoctorReport, docs: readonly LoadedDocument[], cwd: string, notRead: readonly InputError[] = []): string {
  return sarifLog(
    TOOL,
    [...report.findings, ...report.suppressed].map((finding) => ({
      finding,
      location: fileLocation(finding.index !== undefined ? docs[finding.index] : undefined, cwd),
    })),
    { operatorNamespace: report.operatorNamespace, cnpgVersion: report.cnpgVersion, objectCount: report.objectCount },
    notRead.map((e) => {
      const location = fileLocation(e.location, cwd);
      return { message: e.message, ...(location ? { location } : {}) };
    }),
  );
}

/** The SARIF log of a run that could not read its input: no results, one error notification. */
export function sarifForError(message: string, location: InputLocation | undefined, cwd: string): string {
  return sarifErrorLog(TOOL, message, fileLocation(location, cwd));
}
