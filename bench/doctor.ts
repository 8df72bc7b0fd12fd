// Doctor throughput on a generated manifest file, in a fresh process:
//
//   node <built>/bench/doctor.js parse|doctor <file.yaml>
//
// `parse` reads and parses the file with the yaml package, as the doctor's CLI does; `doctor`
// does the same and then runs every check. Prints { mode, objects, ms, maxRssMb, errors }.
import { readFileSync } from 'fs';
import { parseAllDocuments } from 'yaml';
import { checkManifests } from '../src/doctor';

/** Parses a multi-document YAML text into plain objects. */
export function parseManifests(text: string): unknown[] {
  return parseAllDocuments(text).map((d) => d.toJS());
}

if (require.main === module) {
  const [mode, file] = process.argv.slice(2);
  const t0 = process.hrtime.bigint();
  const objects = parseManifests(readFileSync(file, 'utf8'));
  const findings = mode === 'doctor' ? checkManifests(objects, { operatorNamespace: 'cnpg-system' }) : [];
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  console.log(
    JSON.stringify({
      mode,
      objects: objects.length,
      ms,
      maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      errors: findings.filter((f) => f.severity === 'error').length,
    }),
  );
}
