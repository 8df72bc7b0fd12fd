import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { RULE_FOLDERS, renderIndex, ruleFiles } from '../../scripts/rule-index';

const root = path.join(__dirname, '..', '..');

describe('the generated rule indexes', () => {
  const doctor = { dir: 'src/doctor/rules', exportName: 'DOCTOR_RULE_DEFINITIONS', inputType: 'DoctorModel', inputModule: '../model' };

  test('list every cnpgiNNN-*.ts file of a rules folder, at any depth, by id, laid out as Prettier would', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rule-index-'));
    try {
      const dir = path.join(tmp, 'src', 'doctor', 'rules');
      fs.mkdirSync(path.join(dir, 'tls'), { recursive: true });
      for (const f of ['tls/cnpgi020-server-name.ts', 'cnpgi002-operator-namespace-env.ts', 'helpers.ts', 'tls/shared.ts', 'index.ts']) {
        fs.writeFileSync(path.join(dir, f), '');
      }
      expect(ruleFiles(tmp, 'src/doctor/rules')).toEqual(['cnpgi002-operator-namespace-env.ts', 'tls/cnpgi020-server-name.ts']);
      const text = renderIndex(tmp, doctor);
      expect(text).toContain(
        "import { rule as cnpgi002 } from './cnpgi002-operator-namespace-env';\nimport { rule as cnpgi020 } from './tls/cnpgi020-server-name';\n",
      );
      expect(text).toContain('export const DOCTOR_RULE_DEFINITIONS: readonly RuleDefinition<DoctorModel>[] = [cnpgi002, cnpgi020];\n');
      expect(text).not.toContain('helpers');
      // imports sorted by path, as the lint rule import-x/order wants them; the list stays by id
      fs.mkdirSync(path.join(dir, 'backup'));
      fs.writeFileSync(path.join(dir, 'backup', 'cnpgi030-archive.ts'), '');
      const sorted = renderIndex(tmp, doctor);
      expect(sorted).toContain(
        "import { rule as cnpgi030 } from './backup/cnpgi030-archive';\nimport { rule as cnpgi002 } from './cnpgi002-operator-namespace-env';\n",
      );
      expect(sorted).toContain('= [cnpgi002, cnpgi020, cnpgi030];\n');
      // a list too long for one line of 160 characters takes one line per rule, as Prettier writes it
      for (let i = 21; i < 40; i++) fs.writeFileSync(path.join(dir, `cnpgi0${i}-rule.ts`), '');
      expect(renderIndex(tmp, doctor)).toContain('[\n  cnpgi002,\n  cnpgi020,\n  cnpgi021,\n');
      fs.writeFileSync(path.join(dir, 'index.ts'), renderIndex(tmp, doctor));
      execFileSync(process.execPath, [
        require.resolve('prettier/bin/prettier.cjs'),
        '--check',
        '--config',
        path.join(root, '.prettierrc.json'),
        path.join(dir, 'index.ts'),
      ]);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  test.each(RULE_FOLDERS.map((f) => [f.dir, f] as const))('%s/index.ts is current (npm run docs:rules writes it)', (dir, folder) => {
    const file = path.join(root, dir, 'index.ts');
    if (!fs.existsSync(path.join(root, dir))) return;
    expect(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '(missing)').toBe(renderIndex(root, folder));
  });
});
